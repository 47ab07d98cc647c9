/**
 * What the package test files share: one `npm pack` (`packOnce`; prepack builds it from scratch,
 * and the real agents' acceptance test shares it while the sources are unchanged), and one
 * install per set of packages (`installedConsumer`): a fresh project outside the repository with
 * the tarball installed from the npm cache, either with no optional peer (`bareProject`) or with
 * vitest, msw and nock added, and the real agents' SDKs (`peersProject`). The files run in
 * parallel forks, each in a project folder of its own over the shared install. Figures (file count, size, install-to-green time)
 * come from `npm run bench:package`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { installedConsumer, packOnce, REPO, repoVersion, run, type Consumer } from './consumer.js';

export const SUBPATHS = [
  'faultline',
  'faultline/report',
  'faultline/runtime',
  'faultline/testing',
  'faultline/vitest',
  'faultline/msw',
  'faultline/nock',
  'faultline/testcontainers',
] as const;
/** The main entry's value exports fit on one screen: the rest belongs in a subpath. */
export const MAIN_ENTRY_MAX = 25;
/** The peer each subpath cannot load without. */
export const NEEDS: Partial<Record<(typeof SUBPATHS)[number], string>> = {
  'faultline/vitest': 'vitest',
  'faultline/msw': 'msw',
  'faultline/nock': 'nock',
};
export const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
// Each step spawns npm, tsc or vitest on a machine that may be busy (a shared CI box can run at a load of 15 per core): generous limits, since nothing here is timed.
export const SLOW = { timeout: 400_000 };
/** For a beforeAll that may pack and install (the first file to come does it for all). */
export const INSTALL_TIMEOUT = 900_000;
export const fixture = (name: string): Promise<string> =>
  readFile(join(REPO, 'test', 'package', 'fixtures', name), 'utf8');
/** The serviceHttp fixture over `adapter`: one file written for msw, whose every "msw"/"Msw" names the adapter (subpath, runner, test title). */
export const serviceHttpFixture = async (adapter: 'msw' | 'nock'): Promise<string> =>
  (await fixture('serviceHttp.msw.fixture.ts'))
    .replaceAll('msw', adapter)
    .replaceAll('Msw', `${adapter[0]!.toUpperCase()}${adapter.slice(1)}`);

/** The tarball and @types/node, no optional peer. */
export async function bareProject(): Promise<Consumer> {
  return installedConsumer(await packOnce(), [`@types/node@${await repoVersion('@types/node')}`]);
}

/**
 * The agents' SDKs of the real agents' acceptance (test/cli/realAgents.ts): four SDKs, LangChain.js
 * and the zod its tools are written with.
 */
const AGENT_SDKS = [
  'openai',
  'ai',
  '@ai-sdk/openai',
  '@openai/agents',
  '@langchain/core',
  '@langchain/openai',
  '@langchain/langgraph',
  'zod',
];

/**
 * The tarball, @types/node, vitest, msw and nock, and the agents' SDKs: one install for the peer
 * files and the real agents' acceptance, which installed the tarball, msw and the SDKs for itself
 * (the two sets apart: 21,423 files in one install against 11,274 + 20,783 in two, and one npm
 * run fewer; no test here imports an SDK or lists the project's packages).
 */
export async function peersProject(): Promise<Consumer> {
  const specs = await Promise.all(
    ['@types/node', 'vitest', 'vite', 'msw', 'nock', ...AGENT_SDKS].map(async (p) => `${p}@${await repoVersion(p)}`),
  );
  return installedConsumer(await packOnce(), specs);
}

/** `peersProject` where `faultline init` has run. */
export async function initedPeersProject(): Promise<Consumer> {
  const project = await peersProject();
  await init(project);
  return project;
}

/** `bareProject` where `faultline init` has run. */
export async function initedBareProject(): Promise<Consumer> {
  const project = await bareProject();
  await init(project);
  return project;
}

/**
 * The file's project: made by `make` once before its tests (a beforeAll, given the install's
 * time) and removed after them. What it returns stands for the project from then on.
 */
export function fileProject(make: () => Promise<Consumer>): Consumer {
  let made: Consumer | undefined;
  beforeAll(async () => {
    made = await make();
  }, INSTALL_TIMEOUT);
  afterAll(async () => {
    await made?.cleanup();
  });
  const get = (): Consumer => {
    if (made === undefined) throw new Error('the project is made in beforeAll: use it in a test or a hook');
    return made;
  };
  return {
    get dir() {
      return get().dir;
    },
    install: (specs) => get().install(specs),
    npx: (args) => get().npx(args),
    bin: (args) => get().bin(args),
    write: (path, text) => get().write(path, text),
    cleanup: () => get().cleanup(),
  };
}

/**
 * `faultline init` in the project, as a step the tests after it build on (it writes
 * faultline.config.ts and the example): the installed binary, without npx's own start (0.4 s of
 * CPU, in four files' set-up), `npx faultline init` itself being packageInitRun's first test.
 */
export async function init(project: Consumer): Promise<void> {
  const r = await project.bin(['faultline', 'init']);
  if (r.code !== 0) throw new Error(`faultline init exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
}

/** Imports `specifier` in a plain `node` process in the project; its exports' names, or the error. */
export async function importInNode(project: Consumer, specifier: string): Promise<{ code: number; out: string }> {
  const script = `import(${JSON.stringify(specifier)}).then((m) => console.log(Object.keys(m).sort().join(',')), (e) => { console.log(e.code + ' ' + e.message); process.exit(1); })`;
  const r = await run(process.execPath, ['--input-type=module', '-e', script], project.dir);
  return { code: r.code, out: r.stdout + r.stderr };
}

/** A tsconfig over `files`: strict, NodeNext, skipLibCheck off (the library's .d.ts are checked too), and `extra`. */
export const tsconfig = (extra: Record<string, unknown>, files: readonly string[] = ['consumer.ts']): string =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2023',
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      ...extra,
    },
    files,
  });

/** An http agent that only says it is done: the peer checks refuse its scenario before it runs. */
export const HTTP_AGENT = `export default async () => ({ outcome: 'completed', claims: [] });\n`;
export const httpScenario = (name: string, adapter: string): string =>
  `name: ${name}\nagent:\n  kind: http\n  task: say done\n  module: ./agent.mjs\nhttp:\n  adapter: ${adapter}\ngoal:\n  outcome: [completed]\n`;

/** Writes the http agent and its two scenarios, one intercepted by msw, one by nock, under peers/. */
export async function writeHttpScenarios(project: Consumer): Promise<void> {
  await project.write('peers/agent.mjs', HTTP_AGENT);
  await project.write('peers/via-msw.yaml', httpScenario('via-msw', 'msw'));
  await project.write('peers/via-nock.yaml', httpScenario('via-nock', 'nock'));
}

/** The exact version faultline's package.json names for a peer (\`^2.15.0\` gives 2.15.0). */
export const peerVersion = async (peer: string): Promise<string> =>
  (
    JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }
  ).peerDependencies[peer]!.replace(/^[\^~]/, '');
