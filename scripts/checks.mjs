// `npm test`'s steps before the test suite, on both cores: each of these is a single-threaded
// process, so run one after another they leave a core idle for minutes. Two lanes, each in
// order: the build (the suite needs dist/), then the type check and the import-cycle check;
// beside them, the type-aware lint, the longest step. Each step's output is printed whole when
// it ends, so two steps never interleave; the exit code is the first failure's, or 0.
import { spawn } from 'node:child_process';

const LANES = [['build', 'typecheck', 'cycles'], ['lint']];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(name) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(`> npm run ${name}${code === 0 ? '' : ` (exit ${code})`}\n${Buffer.concat(out).toString()}`);
      resolve(code ?? 1);
    });
  });
}

async function lane(names) {
  for (const name of names) {
    const code = await step(name);
    if (code !== 0) return code;
  }
  return 0;
}

const codes = await Promise.all(LANES.map(lane));
process.exitCode = codes.find((c) => c !== 0) ?? 0;
