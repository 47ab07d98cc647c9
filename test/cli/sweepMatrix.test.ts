/**
 * Issue 27: `sweep` under faultline.config.ts's agents matrix, in a user's project (the first
 * sweep through the real binary, its replays and the other runs in process, `./inProcess.ts`).
 * Each agent is a cell of its own, labelled by it, in every table and in sweep.json; a failing
 * point's --replay command carries `--agent NAME` and reruns that trial.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweepJson } from '../../src/report/sweep/sweepJson.js';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const CONFIG = `import { defineConfig } from 'faultline';

const plan = { steps: [{ tool: 'create_order', input: { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 }, subject: 'orders:ref-1' }] };

export default defineConfig({
  defaults: { services: ['orders'] },
  agents: [
    { name: 'careful', kind: 'scripted', behaviour: 'careful', plan },
    { name: 'blind', kind: 'scripted', behaviour: 'retries-blindly', plan },
  ],
});
`;

// No services or agent of its own: the config's defaults and agents fill them in.
const SCENARIO = `name: swept-orders
agent: { task: Create order ref-1 }
goal:
  effects: { order.created: 1 }
`;

const SWEEP = [
  'sweep',
  'orders.yaml',
  '--fault',
  'unavailable',
  '--lambda',
  '0.8',
  '--k',
  '4',
  '--workers',
  '0',
  '--reporter',
  'console',
  '--reporter',
  'json',
];

// A scripted agent with no plan of its own and an http agent, for a scenario that gives the plan.
const MIXED_CONFIG = `export default {
  defaults: { services: ['orders'] },
  agents: [
    { name: 'careful', kind: 'scripted', behaviour: 'careful' },
    { name: 'fetcher', module: './fetcher.agent.mjs' },
  ],
};
`;

const MIXED_SCENARIO = `name: mixed-orders
agent:
  task: Create order ref-1
  plan:
    steps:
      - { tool: create_order, input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1200 }, subject: "orders:ref-1" }
goal:
  effects: { order.created: 1 }
`;

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('sweep-matrix', {
    'faultline.config.ts': CONFIG,
    'orders.yaml': SCENARIO,
    'mixed/faultline.config.mjs': MIXED_CONFIG,
    // Makes no call: it only has to be accepted beside the scripted agent.
    'mixed/fetcher.agent.mjs': "export default async () => ({ outcome: 'failed' });\n",
    'mixed/orders.yaml': MIXED_SCENARIO,
  });
});
afterAll(() => project.cleanup());

const report = async (out: string): Promise<SweepJson['sweep']> =>
  (JSON.parse(await readFile(join(project.path, out, 'sweep.json'), 'utf8')) as SweepJson).sweep;

describe('sweep over an agents matrix', () => {
  it("labels each agent's cells by it, with its figures, and its failing point's --replay --agent reruns the trial", async () => {
    const r = await faultline([...SWEEP, '--config', 'rulebook', '--out', 'one'], { cwd: project.path });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const sweep = await report('one');
    // One scenario, run by two agents: not two scenarios, and no column for a configuration no cell is labelled by.
    expect(sweep.scenarios).toEqual(['swept-orders']);
    expect(sweep.configs).toEqual(['careful', 'blind']);
    expect(sweep.byConfig.map((c) => [c.config, c.points[0]!.trials])).toEqual([
      ['careful', 4],
      ['blind', 4],
    ]);
    // The columns are agents, and every headline and header says so (they said "configuration").
    expect(sweep.columns).toBe('agent');
    expect(r.stdout).toContain('1 scenario × 2 agents,');
    expect(r.stdout).toContain('with 95% intervals by agent, over 1 scenario');
    expect(r.stdout).toMatch(/\n {2}agent +rate +λ=0\.8\n/);
    expect(r.stdout).toMatch(/\n {2}scenario +agent +λ=0\.8\n/);
    expect(r.stdout).not.toMatch(/configuration/);
    expect(r.stdout).toMatch(/\n {2}careful +pass\^1 +\d\.\d{3} \[/);
    const failing = sweep.byConfig.find((c) => c.points[0]!.replay !== null);
    expect(failing, JSON.stringify(sweep.byConfig)).toBeDefined();
    const replay = failing!.points[0]!.replay!;
    expect(replay).toMatch(
      new RegExp(
        `^faultline sweep \\S*orders\\.yaml --config rulebook --agent ${failing!.config} --fault unavailable --lambda 0\\.8 --seed 1 --replay \\d+$`,
      ),
    );
    expect(r.stdout).toContain(`    ${replay}`);

    const args = replay.split(' ').slice(1);
    const rerun = await inProcess(args, { cwd: project.path });
    expect(rerun.code, rerun.stderr).toBe(1);
    expect(rerun.stdout).toMatch(
      new RegExp(
        `^faultline sweep --replay {2}swept-orders × ${failing!.config}, unavailable at λ=0\\.8, seed 1 \\(point seed \\d+\\), trial \\d+: failed`,
      ),
    );
    expect(rerun.stdout).toMatch(/fault unavailable\(status=503\) on req-\d+/);
    const json = await inProcess([...args, '--json'], { cwd: project.path });
    expect((await inProcess([...args, '--json'], { cwd: project.path })).stdout).toBe(json.stdout);

    const ambiguous = await inProcess(
      args.filter((a, i) => a !== '--agent' && args[i - 1] !== '--agent'),
      { cwd: project.path },
    );
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      "--replay reruns one trial: name one agent of faultline.config.ts's agents (--agent), not 2 (careful, blind)",
    );
  });

  it('under several configurations, a cell per agent and configuration, labelled agent/config, each with its trials', async () => {
    const r = await inProcess([...SWEEP, '--config', 'rulebook', '--config', 'naive', '--out', 'two'], {
      cwd: project.path,
    });
    expect([0, 1], r.stderr + r.stdout).toContain(r.code);
    const sweep = await report('two');
    const labels = ['careful/rulebook', 'blind/rulebook', 'careful/naive', 'blind/naive'];
    expect(sweep.configs).toEqual(labels);
    expect(sweep.columns).toBe('agent or configuration');
    expect(r.stdout).toContain('1 scenario × 4 agents or configurations,');
    expect(sweep.byConfig.map((c) => [c.config, c.points[0]!.trials])).toEqual(labels.map((l) => [l, 4]));
    expect(sweep.byScenario.map((c) => [c.scenario, c.config, c.points[0]!.trials])).toEqual(
      labels.map((l) => ['swept-orders', l, 4]),
    );
    expect(r.stdout).not.toMatch(/n\/a/);
    const replayed = sweep.byConfig.filter((c) => c.points[0]!.replay !== null);
    expect(replayed.length).toBeGreaterThan(0);
    for (const c of replayed)
      expect(c.points[0]!.replay).toContain(`--config ${c.config.split('/')[1]!} --agent ${c.config.split('/')[0]!} `);
  });

  it("gives a scenario's kindless scripted plan to the scripted agents of a mixed matrix, and the http agent its task, instead of refusing the scenario for it", async () => {
    const cwd = join(project.path, 'mixed');
    const r = await inProcess(['run', 'orders.yaml', '--k', '1', '--reporter', 'json', '--workers', '0'], { cwd });
    // The http agent makes no call, so its cell fails its goal; before, the scenario was refused (exit 2, agent: Unrecognized key: "plan").
    expect(r.code, r.stderr + r.stdout).toBe(1);
    const cells = (
      JSON.parse(await readFile(join(cwd, 'reports', 'faultline.json'), 'utf8')) as {
        cells: { config: string; status: string }[];
      }
    ).cells;
    expect(cells.map((c) => [c.config, c.status])).toEqual([
      ['careful', 'passed'],
      ['fetcher', 'failed'],
    ]);
  });
});
