import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';
import { dirname, join, relative, sep } from 'node:path';
import { ExitCode } from '../exitCodes.js';
import type { Io } from '../io.js';
import { EXAMPLES_DIR, exampleTarget, INIT_EXAMPLE_NAMES, INIT_EXAMPLES, type InitExample } from './examples.js';
import { AGENT, CONFIG, configFor, SCENARIO, SCRIPT, SERVICE, WORKFLOW } from './templates.js';

interface InitFile {
  readonly path: string;
  readonly text: string;
}

/** The files `init` writes, relative to the project folder. */
export const INIT_FILES: readonly InitFile[] = [
  { path: 'faultline.config.ts', text: CONFIG },
  { path: 'faultline/services/helpdesk.service.ts', text: SERVICE },
  { path: 'faultline/agents/open-ticket.agent.ts', text: AGENT },
  { path: 'faultline/scenarios/helpdesk-partial-write.scenario.ts', text: SCENARIO },
  { path: '.github/workflows/faultline.yml', text: WORKFLOW },
];

/** An example's files, as they sit under `scenarios/examples/`, bound for `faultline/examples/` in the project. */
async function exampleFiles(example: InitExample): Promise<InitFile[]> {
  const files: InitFile[] = [];
  for (const folder of example.folders) {
    const root = join(EXAMPLES_DIR, folder);
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const from = join(entry.parentPath, entry.name);
      // The example's config becomes the project's (see `exampleConfig`).
      if (example.config === true && from === exampleConfigFile(example)) continue;
      const inExamples = relative(EXAMPLES_DIR, from).split(sep).join('/');
      files.push({ path: `faultline/examples/${inExamples}`, text: await readFile(from, 'utf8') });
    }
  }
  // Sorted, so the list printed is the same on every file system.
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

const exampleConfigFile = (example: InitExample): string => join(EXAMPLES_DIR, example.name, 'faultline.config.ts');

/**
 * The example's config files: its own, as the project's `faultline.config.ts` (or, when the
 * project has one, beside it as `faultline.<example>.config.ts`: the paths in it are from the
 * project's root), else one generated for its scenarios.
 */
async function exampleConfig(example: InitExample, dir: string): Promise<InitFile> {
  if (example.config !== true)
    return { path: 'faultline.config.ts', text: configFor(`${exampleTarget(example.name)}/*.yaml`) };
  const text = await readFile(exampleConfigFile(example), 'utf8');
  const taken = (await stat(join(dir, 'faultline.config.ts')).catch(() => undefined)) !== undefined;
  return { path: taken ? `faultline.${example.name}.config.ts` : 'faultline.config.ts', text };
}

/** The example named `name`, or a usage error listing the names there are. */
function exampleNamed(name: string): InitExample {
  const example = INIT_EXAMPLES.find((e) => e.name === name);
  if (example) return example;
  throw new FaultlineError(
    FaultlineErrorCode.Usage,
    `--example ${JSON.stringify(name)}: no such example; expected one of ${INIT_EXAMPLE_NAMES.join(', ')}`,
  );
}

/** The command that installs what the example's own code and runs need, at the versions faultline tests with. */
async function installCommand(example: InitExample): Promise<string | undefined> {
  const wanted = [...example.peers, ...example.packages];
  if (wanted.length === 0) return undefined;
  // dist/cli/init/ and src/cli/init/ both sit three folders below the package root.
  const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    devDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const versions = { ...pkg.devDependencies, ...pkg.peerDependencies };
  const pinned = wanted.map((name) => {
    const version = /^[\^~]?(\d+\.\d+\.\d+)$/.exec(versions[name]?.trim() ?? '')?.[1];
    return version === undefined ? name : `${name}@${version}`;
  });
  return `npm i -D -E ${pinned.join(' ')}`;
}

type Step = { readonly kind: 'created' | 'skipped' | 'added'; readonly what: string; readonly why?: string };

async function writeNew(dir: string, path: string, text: string): Promise<Step> {
  const file = join(dir, path);
  try {
    await mkdir(dirname(file), { recursive: true });
    // 'wx' fails if the file exists, so nothing is ever overwritten, even by a race.
    await writeFile(file, text, { flag: 'wx' });
    return { kind: 'created', what: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await stat(file).catch(() => undefined))?.isFile())
      return { kind: 'skipped', what: path, why: 'it exists' };
    if (typeof code !== 'string') throw error;
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `--dir ${dir}: cannot write ${path} (${code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is a file' : code})`,
    );
  }
}

async function addScript(dir: string): Promise<Step> {
  const file = join(dir, 'package.json');
  const what = `package.json script "${SCRIPT.name}": "${SCRIPT.command}"`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { kind: 'skipped', what, why: 'there is no package.json here (npm init -y, then run init again)' };
  }
  let pkg: { scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as typeof pkg;
  } catch (error) {
    return { kind: 'skipped', what, why: `package.json is not valid JSON (${(error as Error).message})` };
  }
  if (pkg.scripts?.[SCRIPT.name] !== undefined)
    return { kind: 'skipped', what, why: `package.json already has a "${SCRIPT.name}" script` };
  pkg.scripts = { ...pkg.scripts, [SCRIPT.name]: SCRIPT.command };
  // Keep the file's own indentation, so the diff is the one added line.
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  await writeFile(file, `${JSON.stringify(pkg, null, indent)}\n`);
  return { kind: 'added', what };
}

/**
 * `faultline init`: writes what is missing, never overwrites, and says what it did and skipped.
 * With `example`, the worked example of that name takes the place of the starter service, agent
 * and scenario, and the config's scenarios are the example's.
 */
export async function executeInit(dir: string, io: Io, exampleName?: string): Promise<ExitCode> {
  const example = exampleName === undefined ? undefined : exampleNamed(exampleName);
  // An empty --dir would resolve to the working folder: refuse it rather than write there unasked.
  if (dir.trim() === '')
    throw new FaultlineError(FaultlineErrorCode.Usage, '--dir: expected a folder path, got an empty string');
  const info = await stat(dir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `--dir ${dir}: expected a folder, but ${dir} is ${info.isFile() ? 'a file' : 'not a folder'}`,
    );
  const files: readonly InitFile[] = example
    ? [
        await exampleConfig(example, dir),
        ...(await exampleFiles(example)),
        { path: '.github/workflows/faultline.yml', text: WORKFLOW },
      ]
    : INIT_FILES;
  const steps: Step[] = [];
  for (const { path, text } of files) steps.push(await writeNew(dir, path, text));
  steps.push(await addScript(dir));
  const width = Math.max(...steps.map((s) => s.kind.length));
  const lines = steps.map((s) => `  ${s.kind.padEnd(width)}  ${s.what}${s.why === undefined ? '' : ` (${s.why})`}`);
  const skipped = steps.filter((s) => s.kind === 'skipped').length;
  const header = example ? `faultline init --example ${example.name}: ${example.summary}` : 'faultline init';
  const next = example ? await exampleNext(example, steps) : starterNext(skipped);
  io.stdout.write([header, ...lines, '', ...next, ''].join('\n'));
  return ExitCode.Ok;
}

function starterNext(skipped: number): string[] {
  return [
    skipped === 0
      ? 'next: npx faultline run   (the example scenario under the rulebook configuration)'
      : `${skipped} skipped: nothing was overwritten. next: npx faultline run`,
    '      npx faultline run --config naive   (the same scenario under a careless retry policy: it fails, with the evidence)',
  ];
}

async function exampleNext(example: InitExample, steps: readonly Step[]): Promise<string[]> {
  const skipped = steps.filter((s) => s.kind === 'skipped').length;
  const install = await installCommand(example);
  // A config that was there already does not name the example: run its folder by path instead.
  const configSkipped = steps.some((s) => s.kind === 'skipped' && s.what === 'faultline.config.ts');
  const own = steps.find((s) => s.what === `faultline.${example.name}.config.ts`);
  const run =
    own !== undefined
      ? `npx faultline run --config-file ${own.what}`
      : configSkipped
        ? `npx faultline run ${exampleTarget(example.name)}`
        : 'npx faultline run';
  return [
    ...(skipped === 0 ? [] : [`${skipped} skipped: nothing was overwritten.`]),
    ...(install === undefined ? [] : [`needs: ${install}`]),
    ...(example.config === true
      ? [
          `next: ${run}   (each scenario once per agent of the config, every cell labelled by its agent)`,
          `      ${run.replace('faultline run', 'faultline compare')}   (the agents side by side)`,
        ]
      : [
          `next: ${run}   (the example's scenarios under the rulebook configuration)`,
          `      npx faultline run ${exampleTarget(example.name)} --config naive   (the same under a careless retry policy)`,
        ]),
  ];
}
