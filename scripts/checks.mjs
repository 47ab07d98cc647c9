// `npm test`'s steps before the test suite, on both cores: each of these is a single-threaded
// process, so run one after another they leave a core idle for minutes. Two lanes, each in
// order: the build (the suite needs dist/), then the format check; beside them, the type check,
// the import-cycle check and the type-aware lint over one TypeScript program
// (scripts/typecheckAndLint.mjs), the longest step. Each step's output is printed whole when
// it ends, so two steps never interleave; the exit code is the first failure's, or 0.
// The build is `npm pack` in the checkout (test/package/packRepository.ts): its prepack builds
// dist/ from scratch, and the tarball goes where the package tests' packOnce finds it, so the
// suite does not build the package a second time from a copy of the sources.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const script = (name) => ({ name: `npm run ${name}`, command: npm, args: ['run', '--silent', name] });
const BUILD = {
  name: 'build and pack (test/package/packRepository.ts)',
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('../test/package/packRepository.ts', import.meta.url))],
};
const TYPECHECK_AND_LINT = {
  name: 'type check, import cycles and lint (scripts/typecheckAndLint.mjs)',
  command: process.execPath,
  args: [fileURLToPath(new URL('typecheckAndLint.mjs', import.meta.url))],
};
// The same checks as `npm run typecheck`, `npm run cycles` and `npm run lint` (eslint, then
// prettier), in lanes of about equal CPU: 21 + 18 s and 48 s of user CPU on this machine (the
// cycle check over the type check's program costs milliseconds where madge took 6.5 s;
// docs/testing.md, ninth round, speed42m).
const LANES = [[BUILD, script('format:check')], [TYPECHECK_AND_LINT]];

function step({ name, command, args }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(`> ${name}${code === 0 ? '' : ` (exit ${code})`}\n${Buffer.concat(out).toString()}`);
      resolve(code ?? 1);
    });
  });
}

async function lane(steps) {
  for (const s of steps) {
    const code = await step(s);
    if (code !== 0) return code;
  }
  return 0;
}

const codes = await Promise.all(LANES.map(lane));
process.exitCode = codes.find((c) => c !== 0) ?? 0;
