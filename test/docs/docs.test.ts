/**
 * The README and the guides in docs/ stay true to the repository: every relative link reaches a
 * file (and a heading, when it names one), docs/cli.md is the CLI's own help (every flag of
 * `run` and `compare` in it, read from the commander program in process), and the map in
 * docs/architecture.md lists exactly the folders of src/.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mapFolders } from './architectureMap.js';
import { cliReference, command, generatedPart, longFlags } from './cliHelp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Prose only: fenced blocks and inline code hold examples, not links. */
const prose = (markdown: string): string =>
  markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for each heading (lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2…), and each `<a id>`. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** The relative links of a page, as written: `docs/ci.md#gates`, `#the-two-commands`. */
export function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/**
 * Pages another branch is writing at the same time (issue 42's docs/testing.md): a link to one
 * is taken on trust while the file is missing, and checked like any other once it is there.
 */
const WRITTEN_ELSEWHERE = new Set(['docs/testing.md']);

/** What is wrong with one link of `page`, or undefined when it resolves. */
export function brokenLink(page: string, link: string): string | undefined {
  const [path = '', anchor] = link.split('#', 2);
  const target = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(path)));
  if (!existsSync(join(ROOT, target)))
    return WRITTEN_ELSEWHERE.has(target) ? undefined : `${page}: ${link}: no file ${target}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(join(ROOT, target)).isDirectory() || !target.endsWith('.md'))
    return `${page}: ${link}: #${anchor} on ${target}, which has no headings`;
  return anchors(read(target)).has(anchor) ? undefined : `${page}: ${link}: ${target} has no heading #${anchor}`;
}

describe('the docs', () => {
  it('every relative link in README.md and docs/*.md reaches a file, and a heading when it names one', () => {
    expect(PAGES).toContain('docs/cli.md');
    const links = PAGES.flatMap((page) => relativeLinks(read(page)).map((link) => ({ page, link })));
    expect(links.length).toBeGreaterThan(50);
    expect(links.map(({ page, link }) => brokenLink(page, link)).filter((e) => e !== undefined)).toEqual([]);
  });

  it('a link to a missing file or heading is caught, and a good one passes', () => {
    expect(
      anchors('# Gating CI: gates\n\n## The `x` flag, again\n\n## The `x` flag, again\n\n<a id="r1"></a>\n'),
    ).toEqual(new Set(['gating-ci-gates', 'the-x-flag-again', 'the-x-flag-again-1', 'r1']));
    expect(relativeLinks('[a](ci.md#x) [b](https://x.test) `[c](no.md)` [d](<../README.md>)')).toEqual([
      'ci.md#x',
      '../README.md',
    ]);
    expect(brokenLink('docs/cli.md', 'nowhere.md')).toMatch(/no file docs\/nowhere\.md/);
    expect(brokenLink('README.md', 'docs/cli.md#no-such-heading')).toMatch(/has no heading #no-such-heading/);
    expect(brokenLink('README.md', 'docs/cli.md')).toBeUndefined();
    expect(brokenLink('docs/cli.md', '#exit-codes')).toBeUndefined();
    expect(brokenLink('docs/cli.md', '../README.md#the-two-commands')).toBeUndefined();
  });

  it('docs/cli.md is the help of every command, as the commander program prints it', () => {
    const page = read('docs/cli.md');
    expect(generatedPart(page), 'docs/cli.md disagrees with the CLI: run `npm run docs:cli`').toBe(cliReference());
  });

  it('every flag of run and compare appears in docs/cli.md', () => {
    const page = read('docs/cli.md');
    for (const name of ['run', 'compare']) {
      const flags = longFlags(command(name));
      expect(flags).toEqual(
        expect.arrayContaining(['--k', '--config', '--gate', '--grep', '--bail', '--last-failed', '--watch']),
      );
      expect(flags.filter((f) => !new RegExp(`${f}(?![a-z-])`).test(page))).toEqual([]);
    }
  });

  it("docs/architecture.md's map lists exactly the folders of src/", () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    // A subfolder with a floor of its own (agent/kinds) is a row too; the folders of src/ are the top-level rows.
    const map = mapFolders(read('docs/architecture.md')).filter((f) => !f.includes('/'));
    expect(new Set(map).size).toBe(map.length);
    expect([...map].sort()).toEqual([...folders].sort());
  });
});
