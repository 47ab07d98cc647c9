/**
 * A scenario's `crash.agent` (issue 45): the user's own command agent is killed mid-task and
 * started again. From a user's project outside the repo: once through the real binary (the naive
 * agent starts over and places an order twice, `duplicates`; the agent with an operation record
 * reconciles and passes), then the variations in process through the CLI's entry: every crash
 * point of the plan (each committed effect, each tool request, a time), the Python agent on
 * `sqlite3`, and what the restarted agent is told.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/crash/', import.meta.url));
const example = (path: string): Promise<string> => readFile(`${EXAMPLES}${path}`, 'utf8');

/** The worked example's scenario with another agent program and crash trigger. */
const scenario = (name: string, argv: string, trigger: string): string => `name: ${name}
services: [orders]
crash:
  agent: ${trigger}
agent:
  kind: command
  task: Place the two purchase orders po-1 and po-2.
  argv: ${argv}
  timeoutMs: 20000
goal:
  effects: { order.created: 2 }
  outcome: [completed]
`;

/**
 * The crash points of the two-order task, one of each trigger: each committed create_order (the
 * first start's two tool requests are those same two calls, so `afterCall: 1` is `effect-1`), and a time.
 */
const POINTS = [
  ['effect-1', '{ afterEffectOf: create_order }'],
  ['effect-2', '{ afterEffectOf: create_order, nth: 2 }'],
  ['call-2', '{ afterCall: 2 }'],
  ['at-0', '{ atMs: 0 }'],
] as const;

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  const files: Record<string, string> = {
    'agents/orders.mjs': await example('agents/orders.mjs'),
    'agents/naive.mjs': await example('agents/naive.mjs'),
    'agents/recorded.mjs': await example('agents/recorded.mjs'),
    'agents/recorded_sqlite.py': await example('agents/recorded_sqlite.py'),
    'naive-after-create.yaml': await example('naive-after-create.yaml'),
    'recorded-after-create.yaml': await example('recorded-after-create.yaml'),
    // Prints what a start is told, and that the working folder's file survived the kill.
    'agents/told.mjs': `import { existsSync, writeFileSync } from 'node:fs';
const mark = process.env.FAULTLINE_WORKDIR + '/started';
const before = existsSync(mark);
writeFileSync(mark, 'x');
const told = { restart: process.env.FAULTLINE_RESTART ?? '-', count: process.env.FAULTLINE_RESTART_COUNT ?? '-', before };
// The first start dies as its first tool request is answered, with the mark written before it.
if (process.env.FAULTLINE_RESTART !== '1') {
  await fetch(process.env.FAULTLINE_ORDERS_URL + '/tools/find_order_by_reference', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"clientReference":"po-1"}' });
  await new Promise((r) => setTimeout(r, 60_000));
}
writeFileSync(process.env.FAULTLINE_RESULT, JSON.stringify({ outcome: 'completed', message: JSON.stringify(told), claims: [] }));
`,
  };
  for (const [point, trigger] of POINTS) {
    files[`points/naive-${point}.yaml`] = scenario(`naive-${point}`, '[node, ../agents/naive.mjs]', trigger);
    files[`points/recorded-${point}.yaml`] = scenario(`recorded-${point}`, '[node, ../agents/recorded.mjs]', trigger);
    files[`points/python-${point}.yaml`] = scenario(
      `python-${point}`,
      '[python3, ../agents/recorded_sqlite.py]',
      trigger,
    );
  }
  files['told.yaml'] = scenario('told', '[node, agents/told.mjs]', '{ afterCall: 1 }').replace(
    /goal:[\s\S]*$/,
    // Judged failed on purpose, so that the report keeps its history.
    'goal:\n  outcome: [failed]\n',
  );
  // A crash that never fires: the naive agent makes two tool requests, and reads commit no effect.
  files['never/naive-call-9.yaml'] = scenario('naive-call-9', '[node, ../agents/naive.mjs]', '{ afterCall: 9 }');
  files['read-effect.yaml'] = scenario(
    'read-effect',
    '[node, agents/naive.mjs]',
    '{ afterEffectOf: find_order_by_reference }',
  );
  project = await userProject('crash-agent', files);
});
afterAll(() => project.cleanup());

type Report = {
  cells: {
    scenario: string;
    metrics: { successes: number; coverage: unknown[] };
    trials: { status: string; failed: string[]; history: { type: string }[] }[];
  }[];
};
const report = async (out: string): Promise<Report> =>
  JSON.parse(await readFile(`${project.path}/${out}/faultline.json`, 'utf8')) as Report;
const failedBy = (r: Report): Record<string, string[]> =>
  Object.fromEntries(r.cells.map((c) => [c.scenario, [...new Set(c.trials.flatMap((t) => t.failed))].sort()]));

describe('crash.agent: a command agent killed mid-task and started again', () => {
  it('through the binary: the naive agent duplicates the order it never heard of; the recorded one reconciles', async () => {
    const r = await faultline(
      [
        'run',
        'naive-after-create.yaml',
        'recorded-after-create.yaml',
        '--k',
        '1',
        '--out',
        'e2e',
        '--reporter',
        'json',
      ],
      { cwd: project.path },
    );
    expect(r.code, r.stderr).toBe(1);
    const json = await report('e2e');
    expect(failedBy(json)['crash-naive-after-create']).toContain('duplicates');
    expect(failedBy(json)['crash-recorded-after-create']).toEqual([]);
    const types = json.cells[0]!.trials[0]!.history.map((e) => e.type);
    expect(types).toContain('agent_crash');
    expect(types.indexOf('agent_restart')).toBeGreaterThan(types.indexOf('agent_crash'));
  });

  it('in process, every crash point: the naive agent fails duplicates where an order committed unheard, the recorded and the Python agents pass pass^2', async () => {
    const naive = await inProcess(
      ['run', 'points', '--grep', 'naive', '--k', '1', '--out', 'naive-out', '--reporter', 'json'],
      {
        cwd: project.path,
      },
    );
    expect(naive.code, naive.stderr).toBe(1);
    const careful = await inProcess(
      ['run', 'points', '--grep', 'recorded|python', '--k', '2', '--out', 'careful-out', '--reporter', 'json'],
      {
        cwd: project.path,
      },
    );
    expect(careful.code, careful.stderr).toBe(0);
    const failed = { ...failedBy(await report('naive-out')), ...failedBy(await report('careful-out')) };
    for (const [point] of POINTS) {
      expect(failed[`recorded-${point}`], point).toEqual([]);
      expect(failed[`python-${point}`], point).toEqual([]);
    }
    // Killed after a committed order it never heard of, it places that order again; killed before any, it does not.
    for (const point of ['effect-1', 'effect-2', 'call-2'])
      expect(failed[`naive-${point}`], point).toContain('duplicates');
    expect(failed['naive-at-0']).toEqual([]);
  });

  it('in process: a crash that never fires leaves the cell not exercised; afterEffectOf a read tool is refused at load', async () => {
    const never = await inProcess(['run', 'never', '--k', '1', '--out', 'never-out', '--reporter', 'json'], {
      cwd: project.path,
    });
    expect(never.code, never.stderr).toBe(1);
    // Every check passes: only the crash's coverage fails the run (the `unexercised` gate).
    const cell = (await report('never-out')).cells[0]!;
    expect(cell.metrics.successes).toBe(1);
    expect(cell.metrics.coverage).toEqual([
      { rule: -1, label: 'after tool request #9', mustFire: true, trials: 0, firings: 0 },
    ]);
    const read = await inProcess(['run', 'read-effect.yaml', '--k', '1', '--out', 'read-out'], { cwd: project.path });
    expect(read.code).toBe(2);
    expect(read.stderr).toContain('read-effect.yaml');
    expect(read.stderr).toContain('crash.agent.afterEffectOf: "find_order_by_reference" is declared risk: read');
  });

  it('in process: the restart is told so, and finds what the killed start left in the working folder', async () => {
    const r = await inProcess(['run', 'told.yaml', '--k', '1', '--out', 'told-out', '--reporter', 'json'], {
      cwd: project.path,
    });
    expect(r.code, r.stderr).toBe(1);
    const history = (await report('told-out')).cells[0]!.trials[0]!.history as unknown as {
      type: string;
      message?: string;
      signal?: string;
    }[];
    expect(history.find((e) => e.type === 'command_end')?.signal).toBe('SIGKILL');
    const end = history.find((e) => e.type === 'agent_end');
    expect(JSON.parse(end!.message!)).toEqual({ restart: '1', count: '1', before: true });
  });
});
