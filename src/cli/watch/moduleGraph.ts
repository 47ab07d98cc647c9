import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';

const MODULES = ['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.jsx'];
const DATA = ['.yaml', '.yml', '.json'];

// import … from './x', export … from './x', import './x', import('./x'), require('./x'): enough for
// the relative imports a project's scenarios, agents and services make of each other.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]+)\1/g;
// A data file names its modules by relative path: `module: ./agent.ts`, `- ./tickets.service.ts`.
const PATH_IN_DATA = /(?:^|[\s:'"[,-])(\.{1,2}\/[^\s'",\]}]+)/gm;

// A file named without `./`, as a command agent names its script (`argv: [python3, agent.py]`):
// a word with an extension, kept only when such a file exists.
const WORD_PATH = String.raw`(?:[\w.-]{1,120}\/){0,12}[\w.-]{0,120}\w\.[A-Za-z]\w{0,12}`;
const BARE_PATH = new RegExp(String.raw`(?:^|[\s:'"[,(])(${WORD_PATH})(?=$|[\s'",\])}])`, 'gm');
const IS_WORD_PATH = new RegExp(`^${WORD_PATH}$`);
// A module's string literals: a command agent declared in TypeScript (faultline.config.ts's agents) names its script in one.
const STRING = /(['"])([^'"\n]{1,300})\1/g;
// `cwd: agents/`: a command agent's files are read from there.
const CWD_IN_DATA = /\bcwd:\s*['"]?([^\s'",}]+)/g;

const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isFile() === true;

/** The file an import specifier names, as tsx finds it: `./x.js` may be `x.ts`, `./x` may be `x.ts` or `x/index.ts`. */
async function resolveSpecifier(from: string, specifier: string): Promise<string | undefined> {
  const base = resolve(dirname(from), specifier.split(/[?#]/)[0]!);
  const ext = extname(base);
  const stem = ext === '' ? base : base.slice(0, -ext.length);
  const candidates = [
    base,
    ...(ext === '.js' || ext === '.jsx' ? [`${stem}.ts`, `${stem}.tsx`] : []),
    ...(ext === '.mjs' ? [`${stem}.mts`] : []),
    ...(ext === '.cjs' ? [`${stem}.cts`] : []),
    ...(ext === '' ? [...MODULES.map((e) => `${base}${e}`), ...MODULES.map((e) => resolve(base, `index${e}`))] : []),
  ];
  for (const c of candidates) if (await isFile(c)) return c;
  return undefined;
}

/** What one file names of its neighbours: its relative imports (a module) or the relative paths it holds (a data file). */
async function referencesOf(file: string): Promise<string[]> {
  const ext = extname(file).toLowerCase();
  const isModule = MODULES.includes(ext);
  if (!isModule && !DATA.includes(ext)) return [];
  const text = await readFile(file, 'utf8').catch(() => '');
  const specifiers = isModule
    ? [...text.matchAll(IMPORT)].map((m) => m[2]!)
    : [...text.matchAll(PATH_IN_DATA)].map((m) => m[1]!);
  const found: string[] = [];
  for (const s of specifiers) {
    const path = await resolveSpecifier(file, s);
    if (path !== undefined) found.push(path);
  }
  return [...found, ...(await namedFiles(file, text, isModule))];
}

/**
 * The files a scenario or config names as data rather than as imports: a command agent's
 * script and what else its argv names. Read from the file's folder, its `cwd:` and the working
 * folder (where a command agent declared in TypeScript runs); only files that exist count.
 */
async function namedFiles(file: string, text: string, isModule: boolean): Promise<string[]> {
  const words = isModule
    ? [...text.matchAll(STRING)].map((m) => m[2]!).filter((w) => IS_WORD_PATH.test(w))
    : [...text.matchAll(BARE_PATH)].map((m) => m[1]!);
  if (words.length === 0) return [];
  const here = dirname(file);
  const bases = [
    here,
    ...[...text.matchAll(CWD_IN_DATA)].map((m) => resolve(here, m[1]!)),
    ...(isModule ? [process.cwd()] : []),
  ];
  const found: string[] = [];
  for (const word of new Set(words)) {
    for (const base of bases) {
      const path = resolve(base, word);
      if (path !== resolve(file) && (await isFile(path))) found.push(path);
    }
  }
  return found;
}

/**
 * `file` and every file of the project it reaches through relative imports (modules) and
 * relative paths (YAML and JSON scenarios naming their agent and service modules), read from
 * the source text, so nothing is loaded or run. Packages (`node_modules`, bare specifiers) are
 * left out: `--watch` follows the user's own files.
 */
export async function moduleGraph(file: string): Promise<Set<string>> {
  const seen = new Set<string>([resolve(file)]);
  const todo = [resolve(file)];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    for (const dep of await referencesOf(next)) {
      if (seen.has(dep) || dep.split(/[\\/]/).includes('node_modules')) continue;
      seen.add(dep);
      todo.push(dep);
    }
  }
  return seen;
}
