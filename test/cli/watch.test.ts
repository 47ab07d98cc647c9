import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonReport } from '../../src/report/json.js';
import { start } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

/**
 * `faultline run --watch` through the real binary in a user's project: one run, then a rerun of
 * only the scenarios whose file or imported module changed, until SIGINT ends it.
 */

const LIBRARY = fileURLToPath(new URL('../../scenarios/', import.meta.url));

const TS_SCENARIO = `import { name } from './lib/name.js';

export default {
  name,
  agent: {
    kind: 'scripted',
    task: 'Create order ref-1',
    plan: { steps: [{ name: 'order', tool: 'create_order', input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1500 } }] },
  },
};
`;

// A command agent whose script is named bare in argv (read from the scenario's folder): what it
// runs is that file, which no import names.
const CMD_SCENARIO = `name: cmd-agent
agent:
  kind: command
  task: Say how it went
  argv: [sh, agents/say.sh]
goal:
  outcome: [completed]
`;
const say = (outcome: string): string => `echo '{"outcome":"${outcome}"}' > "$FAULTLINE_RESULT"\n`;

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('watch', {
    'scenarios/yaml-order.yaml': (await readFile(join(LIBRARY, 'read-timeout-retry.yaml'), 'utf8')).replace(
      /^name: .*$/m,
      'name: yaml-order',
    ),
    'scenarios/order.scenario.ts': TS_SCENARIO,
    'scenarios/lib/name.ts': "export const name = 'ts-order';\n",
    'scenarios/cmd-agent.yaml': CMD_SCENARIO,
    'scenarios/agents/say.sh': say('completed'),
  });
});
afterAll(() => project.cleanup());

const until = async (what: string, holds: () => boolean, text: () => string): Promise<void> => {
  // Only a hang's bound: generous for a loaded machine, and under the suite's test timeout so the
  // output is shown.
  const deadline = Date.now() + 480_000;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${text()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const count = (text: string, pattern: RegExp): number => text.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;

describe('faultline run --watch', () => {
  it("runs, reruns only what a change reaches (an imported module, a scenario file, a command agent's script: issue 43 #29), and ends cleanly on SIGINT", async () => {
    const run = start(['run', 'scenarios/', '--k', '1', '--reporter', 'list', '--reporter', 'json', '--watch'], {
      cwd: project.path,
    });
    let stdout = '';
    let stderr = '';
    run.child.stdout!.on('data', (d: string) => (stdout += d));
    run.child.stderr!.on('data', (d: string) => (stderr += d));
    const both = (): string => `${stdout}\n--- stderr ---\n${stderr}`;
    const watching = /^faultline: watching 3 scenario files and 2 files they import or name; Ctrl-C to stop$/;

    await until('the first run', () => count(stderr, watching) === 1, both);
    expect(count(stdout, /^✓ rulebook × ts-order: 1\/1 passed/)).toBe(1);
    expect(count(stdout, /^✓ rulebook × yaml-order: 1\/1 passed/)).toBe(1);
    expect(count(stdout, /^✓ rulebook × cmd-agent: 1\/1 passed/)).toBe(1);

    // The module the .ts scenario imports (its name): only that scenario runs again, loaded anew.
    await writeFile(join(project.path, 'scenarios/lib/name.ts'), "export const name = 'ts-order-v2';\n");
    await until('the rerun of ts-order', () => count(stderr, watching) === 2, both);
    expect(stderr).toMatch(/^faultline: changed: scenarios\/lib\/name\.ts; rerunning scenarios\/order\.scenario\.ts$/m);
    expect(count(stdout, /^✓ rulebook × ts-order-v2: 1\/1 passed/)).toBe(1);
    expect(count(stdout, /^✓ rulebook × yaml-order/)).toBe(1);
    const report = JSON.parse(await readFile(join(project.path, 'reports/faultline.json'), 'utf8')) as {
      cells: { scenario: string }[];
    };
    expect(report.cells.map((c) => c.scenario)).toEqual(['ts-order-v2']);

    // A scenario file itself.
    await writeFile(
      join(project.path, 'scenarios/yaml-order.yaml'),
      `${await readFile(join(project.path, 'scenarios/yaml-order.yaml'), 'utf8')}\n`,
    );
    await until('the rerun of yaml-order', () => count(stderr, watching) === 3, both);
    expect(stderr).toMatch(/^faultline: changed: scenarios\/yaml-order\.yaml; rerunning scenarios\/yaml-order\.yaml$/m);
    expect(count(stdout, /^✓ rulebook × yaml-order: 1\/1 passed/)).toBe(2);
    expect(count(stdout, /^✓ rulebook × ts-order/)).toBe(2);
    expect(
      (
        JSON.parse(await readFile(join(project.path, 'reports/faultline.json'), 'utf8')) as {
          cells: { scenario: string }[];
        }
      ).cells.map((c) => c.scenario),
    ).toEqual(['yaml-order']);

    // A command agent's script, named bare in its argv (issue 43 #29): its scenario runs again, the new script's answer judged.
    await writeFile(join(project.path, 'scenarios/agents/say.sh'), say('failed'));
    await until('the rerun of cmd-agent', () => count(stderr, watching) === 4, both);
    expect(stderr).toMatch(/^faultline: changed: scenarios\/agents\/say\.sh; rerunning scenarios\/cmd-agent\.yaml$/m);
    expect(count(stdout, /^✗ rulebook × cmd-agent: 0\/1 passed/)).toBe(1);
    expect(stdout).toMatch(/the agent ended with outcome failed, expected completed/);
    expect(count(stdout, /^✓ rulebook × yaml-order/)).toBe(2);

    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code, both()).toBe(130);
    expect(stderr).not.toMatch(/crashed|Error/);
    // The reports folder the runs wrote into never started a run of its own.
    expect(count(stderr, /^faultline: changed:/)).toBe(3);
  });

  it("a terminal's Ctrl-C (SIGINT to the whole foreground group) reaches the run once: it finishes its trial and writes its reports", async () => {
    // The built-in library as the user's files: a run long enough to be interrupted in the middle.
    await mkdir(join(project.path, 'long'), { recursive: true });
    for (const name of (await readdir(LIBRARY)).filter((f) => f.endsWith('.yaml')))
      await writeFile(join(project.path, 'long', name), await readFile(join(LIBRARY, name), 'utf8'));
    const run = start(['run', 'long/', '--k', '100', '--out', 'long-out', '--reporter', 'json', '--watch'], {
      cwd: project.path,
      detached: true,
    });
    await run.stderrLine(/^✓ rulebook × \S+: 100\/100 passed/);
    process.kill(-run.child.pid!, 'SIGINT');
    const r = await run.done;
    expect(r.stderr).not.toContain('again, exiting without reports');
    expect(r.stderr).toMatch(/interrupted; the reports cover the \d+ trials that finished/);
    expect(r.code, r.stderr).toBe(130);
    expect(
      parseJsonReport(await readFile(join(project.path, 'long-out', 'faultline.json'), 'utf8')).run.interrupted,
    ).toBe(true);
  }, 180_000);

  it('refuses to watch only built-in scenarios, and --watch with --last-failed', async () => {
    // Refused before anything is watched: the CLI's entry in this process (./inProcess.ts) answers as the binary does.
    const [builtin, both] = await Promise.all([
      inProcess(['run', 'read-timeout-retry', '--watch'], { cwd: project.path }),
      inProcess(['run', 'scenarios/', '--watch', '--last-failed'], { cwd: project.path }),
    ]);
    expect(builtin.code).toBe(2);
    expect(builtin.stderr).toContain('error: --watch: no scenario file to watch (built-in scenarios do not change)');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      'error: --watch reruns what changed and --last-failed what failed last time: give one of them',
    );
  });
});
