import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultlineError } from '../core/index.js';
import { loadConfigs, loadScenarios, refOf } from './library.js';

const SCENARIO = `name: my-flow
agent:
  kind: scripted
  task: Create order ref-1
  plan:
    steps:
      - { tool: create_order, input: { clientReference: ref-1, item: pen, quantity: 1, amountCents: 100 } }
`;

describe('library', () => {
  let dir: string;
  let cwd: string;
  beforeEach(async () => {
    cwd = process.cwd();
    dir = await mkdtemp(join(tmpdir(), 'faultline-library-'));
    process.chdir(dir);
  });
  afterEach(() => process.chdir(cwd));

  it('loads the whole built-in library and the rulebook configuration by default', async () => {
    const scenarios = await loadScenarios();
    expect(scenarios.length).toBeGreaterThanOrEqual(13);
    expect(new Set(scenarios.map((s) => s.name)).size).toBe(scenarios.length);
    expect((await loadConfigs()).map((c) => c.name)).toEqual(['rulebook']);
  });

  it('prefers a built-in name over a local folder of the same name', async () => {
    await mkdir(join(dir, 'naive'));
    expect((await loadConfigs(['naive'])).map((c) => c.name)).toEqual(['naive']);
  });

  it('names built-ins by name and user files by path, for replay commands', async () => {
    await writeFile(join(dir, 'flow.yaml'), SCENARIO);
    const [mine] = await loadScenarios(['./flow.yaml']);
    const [builtin] = await loadScenarios(['read-timeout-retry']);
    expect(refOf(mine!)).toBe(`.${'/'}flow.yaml`);
    expect(refOf(builtin!)).toBe('read-timeout-retry');
    const [config] = await loadConfigs(['naive']);
    expect(refOf(config!)).toBe('naive');
    expect(relative(dir, join(dir, refOf(mine!)))).toBe('flow.yaml');
  });

  it('refuses an unknown name with the list of built-ins', async () => {
    await expect(loadConfigs(['nope'])).rejects.toThrow(FaultlineError);
    await expect(loadConfigs(['nope'])).rejects.toThrow(
      /no configuration file or built-in configuration named "nope" \(built-in: .*rulebook/,
    );
  });

  it('refuses two scenarios with one name, naming both files', async () => {
    await writeFile(join(dir, 'a.yaml'), SCENARIO);
    await writeFile(join(dir, 'b.yaml'), SCENARIO);
    await expect(loadScenarios(['./a.yaml', './b.yaml'])).rejects.toThrow(
      /two scenarios are named "my-flow": .*a\.yaml and .*b\.yaml/,
    );
  });
});
