/**
 * The YAML files `npm run build` parses ahead (dist/scenario/yamlCache.js, read by the built
 * loader): every YAML file the package ships is there, each entry is what parsing its text
 * today gives, and a file whose text differs from the build's is parsed, not looked up.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..');
const yamlFiles = readdirSync(join(ROOT, 'scenarios'), { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && /\.ya?ml$/.test(d.name))
  .map((d) => join(d.parentPath, d.name));

type Built = { readonly PARSED: Readonly<Record<string, string>> };
type Keys = { readonly yamlTextKey: (text: string) => string };
type Loader = { readonly loadFile: (file: string, code: string) => Promise<unknown> };

describe('the YAML parsed at build time', () => {
  let built: Built;
  let keys: Keys;
  let loader: Loader;
  let dir: string;
  beforeAll(async () => {
    built = (await import(join(ROOT, 'dist', 'scenario', 'yamlCache.js'))) as Built;
    keys = (await import(join(ROOT, 'dist', 'scenario', 'parsedYaml.js'))) as Keys;
    loader = (await import(join(ROOT, 'dist', 'scenario', 'loadFile.js'))) as Loader;
    dir = await mkdtemp(join(tmpdir(), 'faultline-yaml-cache-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('holds every YAML file under scenarios/, each as its text parses today', () => {
    expect(yamlFiles.length).toBeGreaterThanOrEqual(19);
    for (const file of yamlFiles) {
      const text = readFileSync(file, 'utf8');
      const json = built.PARSED[keys.yamlTextKey(text)];
      expect(json, file).toBeDefined();
      expect(JSON.parse(json!), file).toStrictEqual(parseDocument(text).toJS());
    }
  });

  it('parses a file whose text differs from the build, and refuses bad YAML as before, naming the file and line', async () => {
    const original = readFileSync(
      yamlFiles.find((f) => f.endsWith('read-timeout-retry.yaml'))!,
      'utf8',
    );
    const edited = join(dir, 'edited.yaml');
    await writeFile(edited, original.replace(/^name: read-timeout-retry$/m, 'name: read-timeout-edited'));
    expect(built.PARSED[keys.yamlTextKey(readFileSync(edited, 'utf8'))]).toBeUndefined();
    expect(await loader.loadFile(edited, 'FAULTLINE_SCENARIO_INVALID')).toMatchObject({ name: 'read-timeout-edited' });
    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, `${original}\n  : [unclosed\n`);
    await expect(loader.loadFile(bad, 'FAULTLINE_SCENARIO_INVALID')).rejects.toThrow(
      /bad\.yaml:\d+:\d+: not valid YAML/,
    );
  });
});
