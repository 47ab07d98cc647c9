/**
 * docs/api.md documents every public export: each entry's values (one line and an example)
 * and types (one line). The names come from the entry files themselves, read by the
 * TypeScript compiler (`publicExports`), so a new export without a line fails here, and so
 * does a line about a name no longer exported.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { publicExports, type EntryExports } from './publicExports.js';

interface DocRow {
  readonly name: string;
  readonly kind: 'value' | 'type';
  readonly cells: readonly string[];
}

interface DocSection {
  /** The entries its heading names: `## \`faultline/msw\`, \`faultline/nock\`` documents both. */
  readonly entries: readonly string[];
  readonly rows: readonly DocRow[];
}

/** The `## entry` sections of the page, each with the rows of its `### Values` and `### Types` tables. */
function parseApiDoc(text: string): DocSection[] {
  const sections: { entries: string[]; rows: DocRow[] }[] = [];
  let kind: DocRow['kind'] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      sections.push({ entries: [...line.matchAll(/`(faultline(?:\/[\w-]+)?)`/g)].map((m) => m[1]!), rows: [] });
      kind = undefined;
    } else if (line.startsWith('### ')) {
      kind = /^### Values\b/.test(line) ? 'value' : /^### Types\b/.test(line) ? 'type' : undefined;
    } else if (kind !== undefined && sections.length > 0) {
      const row = /^\| `([A-Za-z_$][\w$]*)` \|(.*)\|\s*$/.exec(line);
      if (row)
        sections.at(-1)!.rows.push({ name: row[1]!, kind, cells: row[2]!.split(/(?<!\\)\|/).map((c) => c.trim()) });
    }
  }
  return sections;
}

const text = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
const sections = parseApiDoc(text);
const exported = publicExports();

/** What a section's rows are measured against: every name its entries export, by kind. */
function exportsOf(section: DocSection): { values: Set<string>; types: Set<string> } {
  const entries = exported.filter((e) => section.entries.includes(e.entry));
  return { values: new Set(entries.flatMap((e) => e.values)), types: new Set(entries.flatMap((e) => e.types)) };
}

describe('docs/api.md', () => {
  it('has one section for every public entry file, and none for an entry that does not exist', () => {
    const documented = sections.flatMap((s) => s.entries);
    expect(exported.map((e) => e.entry).filter((entry) => !documented.includes(entry))).toEqual([]);
    expect(documented.filter((entry) => !exported.some((e) => e.entry === entry))).toEqual([]);
  });

  it.each(exported.map((e): [string, EntryExports] => [e.entry, e]))(
    'documents every export of %s: each value with a line and an example, each type with a line',
    (_entry, entry) => {
      const section = sections.find((s) => s.entries.includes(entry.entry));
      const rows = section?.rows ?? [];
      const missing = [
        ...entry.values
          .filter((name) => !rows.some((r) => r.name === name && r.kind === 'value'))
          .map((name) => `value ${name}: no row in ${entry.entry}'s Values table`),
        ...entry.types
          .filter((name) => !rows.some((r) => r.name === name && r.kind === 'type'))
          .map((name) => `type ${name}: no row in ${entry.entry}'s Types table`),
      ];
      expect(missing).toEqual([]);
      const thin = rows
        .filter((r) => entry.values.includes(r.name) || entry.types.includes(r.name))
        .filter(
          (r) =>
            r.cells[0] === undefined ||
            r.cells[0].length < 10 ||
            (r.kind === 'value' && !/^`.+`$/.test(r.cells[1] ?? '')),
        )
        .map((r) => `${r.name}: ${r.kind === 'value' ? 'a line and an example in backticks' : 'a line'} expected`);
      expect(thin).toEqual([]);
    },
  );

  it('names nothing that is no longer exported, and each name under the kind it is exported as', () => {
    const stale = sections.flatMap((section) => {
      const { values, types } = exportsOf(section);
      return section.rows
        .filter((r) => !(r.kind === 'value' ? values : types).has(r.name))
        .map(
          (r) =>
            `${section.entries.join(', ')}: ${r.name} is documented as a ${r.kind} but ${values.has(r.name) || types.has(r.name) ? `is exported as a ${r.kind === 'value' ? 'type' : 'value'}` : 'is not exported'}`,
        );
    });
    expect(stale).toEqual([]);
  });

  it('documents each name once per section', () => {
    const twice = sections
      .flatMap((s) => s.rows.map((r) => `${s.entries.join(', ')}: ${r.name}`))
      .filter((key, i, all) => all.indexOf(key) !== i);
    expect(twice).toEqual([]);
  });

  // The checks above must be able to fail: a page without a name, and a page with an extra one, are caught.
  it('the parser sees a missing and a stale row', () => {
    const withoutOne = text.replace(/^\| `defineScenario` \|.*\n/m, '');
    expect(
      parseApiDoc(withoutOne)
        .find((s) => s.entries.includes('faultline'))
        ?.rows.some((r) => r.name === 'defineScenario'),
    ).toBe(false);
    const withExtra = text.replace('### Values\n', '### Values\n| `noSuchExport` | gone | `noSuchExport()` |\n');
    const extra = parseApiDoc(withExtra)[0]!;
    expect(extra.rows.some((r) => r.name === 'noSuchExport' && !exportsOf(extra).values.has(r.name))).toBe(true);
  });
});
