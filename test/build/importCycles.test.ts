/**
 * `npm test`'s import-cycle check (scripts/importCycles.mjs, run by scripts/typecheckAndLint.mjs
 * over its program instead of madge): a cycle made by any kind of import fails it, as madge
 * (`npm run cycles`) finds it, and a graph without one passes. One program over a folder per
 * case, and madge over the same folders, in this process.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCycles } from '../../scripts/importCycles.mjs';

/** Each case: its files (name → text). Every edge kind madge follows makes a cycle of its own. */
const CYCLIC: Record<string, Record<string, string>> = {
  static: {
    'a.ts': `import { b } from './b.js';\nexport const a = () => b;\n`,
    'b.ts': `import { a } from './a.js';\nexport const b = () => a;\n`,
  },
  typeOnly: {
    'a.ts': `import type { B } from './b.js';\nexport type A = { b?: B };\n`,
    'b.ts': `import type { A } from './a.js';\nexport type B = { a?: A };\n`,
  },
  reExport: {
    'a.ts': `export { b } from './b.js';\nexport const a = 1;\n`,
    'b.ts': `export * from './a.js';\nexport const b = 2;\n`,
  },
  sideEffect: { 'a.ts': `import './b.js';\nexport {};\n`, 'b.ts': `import './a.js';\nexport {};\n` },
  dynamic: {
    'a.ts': `export const a = async () => (await import('./b.js')).b;\n`,
    'b.ts': `import { a } from './a.js';\nexport const b = a;\n`,
  },
  importType: {
    'a.ts': `export type A = import('./b.js').B;\n`,
    'b.ts': `import type { A } from './a.js';\nexport type B = { a?: A };\n`,
  },
  self: { 'a.ts': `import * as me from './a.js';\nexport const a = () => me;\n` },
  threeFiles: {
    'a.ts': `import './b.js';\nexport {};\n`,
    'b.ts': `import './sub/c.js';\nexport {};\n`,
    'sub/c.ts': `import '../a.js';\nexport {};\n`,
  },
};
const ACYCLIC: Record<string, Record<string, string>> = {
  diamond: {
    'a.ts': `import './b.js';\nimport './c.js';\nexport {};\n`,
    'b.ts': `import type { D } from './d.js';\nexport type B = D;\n`,
    'c.ts': `export const c = async () => import('./d.js');\n`,
    'd.ts': `export type D = 1;\n`,
  },
};

// madge ships no types: what this file uses of its API.
type Madge = (
  path: string,
  config: { fileExtensions: string[]; tsConfig: string },
) => Promise<{ circular(): string[][] }>;
const madge = createRequire(import.meta.url)('madge') as Madge;

let root: string;
let program: ts.Program;
let madgeCycles: string[][];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'faultline-cycles-'));
  await writeFile(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
  const options = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', strict: true, noEmit: true };
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: options }));
  const rootNames: string[] = [];
  for (const [name, files] of Object.entries({ ...CYCLIC, ...ACYCLIC }))
    for (const [file, text] of Object.entries(files)) {
      await mkdir(join(root, name, file, '..'), { recursive: true });
      await writeFile(join(root, name, file), text);
      rootNames.push(join(root, name, file));
    }
  const parsed = ts.parseJsonConfigFileContent({ compilerOptions: options }, ts.sys, root);
  program = ts.createProgram({ rootNames, options: parsed.options });
  const tree = await madge(root, { fileExtensions: ['ts'], tsConfig: join(root, 'tsconfig.json') });
  madgeCycles = tree.circular();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const caseOf = (file: string): string => relative(root, file).split('/')[0]!;

describe('the import-cycle check of npm test (scripts/importCycles.mjs)', () => {
  it.each(Object.keys(CYCLIC))('finds the cycle of the %s case, as madge does', (name) => {
    const cycles = importCycles(program, join(root, name));
    expect(cycles).toHaveLength(1);
    const cycle = cycles[0]!.map((f) => relative(join(root, name), f));
    expect(cycle[0]).toBe(cycle.at(-1));
    expect(new Set(cycle)).toEqual(new Set(Object.keys(CYCLIC[name]!)));
    // madge names a cycle's files once each, relative to the folder it was given.
    const byMadge = madgeCycles.filter((c) => c.every((f) => f.startsWith(`${name}/`)));
    expect(byMadge.map((c) => new Set(c.map((f) => f.slice(name.length + 1))))).toEqual([new Set(cycle)]);
  });

  it('finds none in a graph without one (a diamond of static, type and dynamic imports), nor does madge', () => {
    expect(importCycles(program, join(root, 'diamond'))).toEqual([]);
    expect(madgeCycles.filter((c) => caseOf(join(root, c[0]!)) === 'diamond')).toEqual([]);
  });

  it('leaves out a cycle that passes through no file under the folder it checks', () => {
    expect(importCycles(program, join(root, 'static', 'nothing-here'))).toEqual([]);
    expect(importCycles(program, join(root, 'threeFiles', 'sub'))).toHaveLength(1);
  });
});
