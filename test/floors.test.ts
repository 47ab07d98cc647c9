/**
 * The floors of src/ (the table of docs/architecture.md): each folder imports only folders below it, so data
 * flows one way and a newcomer can read the house from the bottom up. `agent/kinds/` (how each
 * kind of agent is started, with the served world) is a floor of its own above `agent/` (the
 * loop and the contracts a user's agent implements). Test files and test kits may reach anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mapFolders } from './docs/architectureMap.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Lowest first, as docs/architecture.md's table lists them. */
const FLOORS = mapFolders(readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8'));

const floorOf = (file: string): string => {
  const [top, sub] = file.split('/');
  return top === 'agent' && sub === 'kinds' ? 'agent/kinds' : top!;
};

function sources(dir = ''): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return sources(rel);
    return /\.ts$/.test(e.name) &&
      !/\.(test|testkit)\.ts$/.test(e.name) &&
      e.name !== 'testing.ts' &&
      !rel.includes('/testing/')
      ? [rel]
      : [];
  });
}

/** Every relative import and re-export of a file, static or dynamic, type-only or not. */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.[^']+)'/g)].map((m) => m[1]!);

describe('the floors of src/', () => {
  const files = sources();

  it('reads the floors from the map', () => {
    expect(FLOORS.slice(0, 3)).toEqual(['core', 'world', 'runtime']);
    expect(FLOORS.indexOf('agent/kinds')).toBeGreaterThan(FLOORS.indexOf('serve'));
  });

  it('knows every folder of src/', () => {
    const tops = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(tops.filter((t) => !FLOORS.includes(t)).sort()).toEqual([]);
  });

  it('has no import that points up a floor', () => {
    const up: string[] = [];
    for (const file of files) {
      const from = FLOORS.indexOf(floorOf(file));
      for (const spec of importsOf(readFileSync(join(SRC, file), 'utf8'))) {
        const target = posix.normalize(posix.join(posix.dirname(file), spec));
        const to = FLOORS.indexOf(floorOf(target));
        if (to > from) up.push(`${file} imports ${target} (${floorOf(file)} → ${floorOf(target)})`);
      }
    }
    expect(up).toEqual([]);
  });

  it('catches an upward import (the check itself)', () => {
    expect(importsOf("import type { X } from '../runner/run.js';\nconst y = await import('../cli/main.js');")).toEqual([
      '../runner/run.js',
      '../cli/main.js',
    ]);
  });
});
