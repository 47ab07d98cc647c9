/**
 * The house rules of src/ a reader feels (issue 41, docs/architecture.md): files named after what
 * they export and small enough to read, functions a reader holds in their head, lines that fit a
 * screen. The files and functions over the limits today are listed below as known debt: a new
 * one fails, and a listed one that has come under its limit fails until it leaves the list, so the
 * lists only shrink. Lines have no such list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;
const MAX_LINE = 140;

/** Files over MAX_FILE_LINES today (as prettier lays them out). */
const KNOWN_LONG_FILES: string[] = [];

/** Functions over MAX_FUNCTION_LINES today, as `file name`. */
const KNOWN_LONG_FUNCTIONS: string[] = [];

function sources(dir = ''): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? sources(rel) : e.name.endsWith('.ts') ? [rel] : [];
  });
}
const isTest = (file: string): boolean => /\.(test|testkit)\.ts$/.test(file);

/** The functions of a file longer than `max` lines, as `file name` (a name once, however many share it). */
export function longFunctions(file: string, text: string, max: number): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      const named =
        node.name?.getText(sf) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(sf) : undefined);
      if (last - first + 1 > max) out.add(`${file} ${named ?? '(anonymous)'}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...out];
}

describe('the house rules of src/', () => {
  const files = sources().map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));
  const code = files.filter(({ file }) => !isTest(file));

  it(`no source file is over ${MAX_FILE_LINES} lines but the known ones, and those stay over`, () => {
    const long = code.filter(({ text }) => text.split('\n').length > MAX_FILE_LINES).map(({ file }) => file);
    expect(long.sort()).toEqual([...KNOWN_LONG_FILES].sort());
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines but the known ones, and those stay over`, () => {
    const long = code.flatMap(({ file, text }) => longFunctions(file, text, MAX_FUNCTION_LINES));
    expect(long.sort()).toEqual([...KNOWN_LONG_FUNCTIONS].sort());
  });

  it(`no line in src/ is over ${MAX_LINE} characters`, () => {
    const long = files.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (line.length > MAX_LINE ? [`${file}:${i + 1}`] : [])),
    );
    expect(long).toEqual([]);
  });

  it('finds a long function, named or not (the check itself)', () => {
    const body = Array.from({ length: 5 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    expect(longFunctions('x.ts', `function f() {\n${body}\n}\nconst g = () => 1;`, 4)).toEqual(['x.ts f']);
    expect(longFunctions('x.ts', `const g = () => {\n${body}\n};`, 4)).toEqual(['x.ts g']);
    expect(longFunctions('x.ts', `run(() => {\n${body}\n});`, 4)).toEqual(['x.ts (anonymous)']);
    expect(longFunctions('x.ts', `const g = () => {\n${body}\n};`, 10)).toEqual([]);
  });
});
