/**
 * A scenario's `crash.agent` on agents in process (issue 45): a function agent (a scenario module's
 * `fn`) and an http agent (a module of its own) are abandoned at the trigger and started again from
 * a fresh instance of their module. The binary case is in crashAgent.test.ts; here, in process
 * through the CLI's entry: every trigger × function/http × naive/recorded, what a restart is told
 * and finds (its module state new, the checkpoint store kept), that the abandoned run never acts
 * again, and the same bytes on 0, 1 and 2 workers.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/crash/', import.meta.url));
const example = (path: string): Promise<string> => readFile(`${EXAMPLES}${path}`, 'utf8');

/** One of each trigger; the network's 10 ms legs put t=25 inside the second order's request. */
const POINTS = [
  ['effect-1', "{ afterEffectOf: 'create_order' }"],
  ['effect-2', "{ afterEffectOf: 'create_order', nth: 2 }"],
  ['call-2', '{ afterCall: 2 }'],
  ['at-25', '{ atMs: 25 }'],
] as const;
const NETWORK = "network: { latency: { kind: 'constant', ms: 10 } },";

/** The worked example's function scenario with another name and trigger, and the network's latency. */
const functionScenario = (text: string, name: string, trigger: string): string =>
  text
    .replace(/name: '[^']+'/, `name: '${name}'`)
    .replace("crash: { agent: { afterEffectOf: 'create_order' } },", `crash: { agent: ${trigger} },\n  ${NETWORK}`);

const httpScenario = (name: string, module: string, trigger: string): string => `name: ${name}
services: [orders]
${NETWORK.replace(/,$/, '')}
crash:
  agent: ${trigger}
agent:
  kind: http
  task: Place the two purchase orders po-1 and po-2.
  module: ${module}
goal:
  effects: { order.created: 2 }
  outcome: [completed]
`;

const ORDERS = `const ORDERS = [
  { clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12900 },
  { clientReference: 'po-2', item: 'toner', quantity: 2, amountCents: 4800 },
];
const post = async (base, tool, body) => {
  const res = await fetch(base + '/tools/' + tool, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(tool + ': HTTP ' + res.status);
  return res.json();
};
`;

/** An http agent that starts the task over after a crash. */
const HTTP_NAIVE = `${ORDERS}
export default async ({ services }) => {
  for (const o of ORDERS) await post(services.orders.baseUrl, 'create_order', o);
  return { outcome: 'completed', message: 'placed 2 orders' };
};
`;

/** An http agent with its operation record in ctx.kv, reconciling a pending order through a status query. */
const HTTP_RECORDED = `${ORDERS}
export default async ({ services, kv }) => {
  const base = services.orders.baseUrl;
  for (const o of ORDERS) {
    const key = 'order:' + o.clientReference;
    const record = JSON.parse((await kv.get(key)) ?? 'null');
    if (record?.status === 'done') continue;
    if (record?.status === 'pending' && (await post(base, 'find_order_by_reference', { clientReference: o.clientReference })).length > 0) {
      await kv.set(key, JSON.stringify({ status: 'done' }));
      continue;
    }
    await kv.set(key, JSON.stringify({ status: 'pending' }));
    await post(base, 'create_order', o);
    await kv.set(key, JSON.stringify({ status: 'done' }));
  }
  return { outcome: 'completed', message: 'placed 2 orders' };
};
`;

/**
 * What a start is told and finds, for both kinds: a module-level count of starts (1 again in a
 * fresh module), ctx.restart and restartCount, a mark the first start left in ctx.kv. The first
 * start also leaves work behind that would act on the world later (a timer, a wait) if it were
 * not abandoned: an order po-9 at t=1000, while the restart waits until t=3000 before it ends.
 */
const TOLD_BODY = `let starts = 0;
const run = async (ctx, order) => {
  starts += 1;
  const told = { restart: ctx.restart, restartCount: ctx.restartCount, starts, mark: (await ctx.kv.get('mark')) ?? null };
  if (!ctx.restart) {
    await ctx.kv.set('mark', 'left by the first start');
    LATER;
    await order({ clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12900 });
    return { outcome: 'failed', message: 'the first start was not killed' };
  }
  await ctx.wait(3000);
  // Judged failed on purpose, so that the report keeps the history.
  return { outcome: 'failed', message: JSON.stringify(told) };
};
`;
const PO_9 = "{ clientReference: 'po-9', item: 'ghost', quantity: 1, amountCents: 1 }";
const FUNCTION_TOLD = `${TOLD_BODY.replace('LATER', `void ctx.wait(1000).then(() => ctx.tools.create_order(${PO_9}))`)}
export default {
  name: 'told-function',
  services: ['orders'],
  crash: { agent: { afterCall: 1 } },
  agent: { kind: 'function', task: 'Place po-1.', fn: (ctx) => run(ctx, (o) => ctx.tools.create_order(o)) },
  goal: { outcome: ['completed'] },
};
`;
const HTTP_TOLD = `${ORDERS}
${TOLD_BODY.replace('LATER', `setTimeout(() => void post(ctx.services.orders.baseUrl, 'create_order', ${PO_9}), 1000)`)}
export default (ctx) => run(ctx, (o) => post(ctx.services.orders.baseUrl, 'create_order', o));
`;

/**
 * The first start leaves a second worker behind that yields through setImmediate (no virtual timer,
 * no answer wakes it), then places po-9 long after the kill: it must not reach the world (issue 45).
 */
const BACKGROUND_BODY = `const tick = () => new Promise((r) => setImmediate(r));
const run = async (ctx, order) => {
  if (!ctx.restart) {
    void (async () => { for (let i = 0; i < 20; i++) await tick(); await order(${PO_9}); })();
    await order({ clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12900 });
    return { outcome: 'failed', message: 'the first start was not killed' };
  }
  for (let i = 0; i < 100; i++) await tick();
  return { outcome: 'completed', message: 'the restart waited' };
};
`;
const BACKGROUND_FUNCTION = `${BACKGROUND_BODY}
export default {
  name: 'background-function',
  services: ['orders'],
  crash: { agent: { afterEffectOf: 'create_order' } },
  agent: { kind: 'function', task: 'Place po-1.', fn: (ctx) => run(ctx, (o) => ctx.tools.create_order(o)) },
  goal: { effects: { 'order.created': 1 }, outcome: ['completed'] },
};
`;
const HTTP_BACKGROUND = `${ORDERS}
${BACKGROUND_BODY}
export default (ctx) => run(ctx, (o) => post(ctx.services.orders.baseUrl, 'create_order', o));
`;

/** A module that throws when evaluated a second time: the restart's fresh import fails. */
const ONCE = `globalThis.__faultlineOnce = (globalThis.__faultlineOnce ?? 0) + 1;
if (globalThis.__faultlineOnce > 1) throw new Error('evaluated twice');
`;
const PLACE_ONCE = `async (ctx, order) => {
  if (!ctx.restart) await order({ clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12900 });
  return { outcome: 'completed', message: 'placed' };
}`;
const ONCE_FUNCTION = `${ONCE.replaceAll('__faultlineOnce', '__faultlineOnceFn')}
const run = ${PLACE_ONCE};
export default {
  name: 'once-function',
  services: ['orders'],
  crash: { agent: { afterEffectOf: 'create_order' } },
  agent: { kind: 'function', task: 'Place po-1.', fn: (ctx) => run(ctx, (o) => ctx.tools.create_order(o)) },
  goal: { effects: { 'order.created': 1 }, outcome: ['completed'] },
};
`;
const HTTP_ONCE = `${ONCE.replaceAll('__faultlineOnce', '__faultlineOnceHttp')}${ORDERS}
const run = ${PLACE_ONCE};
export default (ctx) => run(ctx, (o) => post(ctx.services.orders.baseUrl, 'create_order', o));
`;

/** A restart that tells where its code runs from: the fresh module's URL, query and all. */
const STACK_FUNCTION = `export default {
  name: 'stack-function',
  services: ['orders'],
  crash: { agent: { afterEffectOf: 'create_order' } },
  agent: { kind: 'function', task: 'Place po-1.', fn: async (ctx) => {
    if (!ctx.restart) await ctx.tools.create_order({ clientReference: 'po-1', item: 'printer', quantity: 1, amountCents: 12900 });
    return { outcome: 'failed', message: 'where: ' + new Error('here').stack.split('\\n')[1].trim() };
  } },
  goal: { outcome: ['completed'] },
};
`;

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  const naive = await example('function-naive.mjs');
  const recorded = await example('function-recorded.mjs');
  const files: Record<string, string> = {
    'agents/http-naive.mjs': HTTP_NAIVE,
    'agents/http-recorded.mjs': HTTP_RECORDED,
    'agents/http-told.mjs': HTTP_TOLD,
    'told/function.mjs': FUNCTION_TOLD,
    'agents/http-background.mjs': HTTP_BACKGROUND,
    'background/function.mjs': BACKGROUND_FUNCTION,
    'stack/function.mjs': STACK_FUNCTION,
    'agents/http-once.mjs': HTTP_ONCE,
    'once/function.mjs': ONCE_FUNCTION,
    'once/http.yaml': httpScenario('once-http', '../agents/http-once.mjs', '{ afterEffectOf: create_order }').replace(
      'order.created: 2',
      'order.created: 1',
    ),
    'background/http.yaml': httpScenario(
      'background-http',
      '../agents/http-background.mjs',
      '{ afterEffectOf: create_order }',
    ).replace('order.created: 2', 'order.created: 1'),
    'told/http.yaml': httpScenario('told-http', '../agents/http-told.mjs', '{ afterCall: 1 }').replace(
      /goal:[\s\S]*$/,
      'goal:\n  outcome: [completed]\n',
    ),
  };
  for (const [point, trigger] of POINTS) {
    files[`points/function-naive-${point}.mjs`] = functionScenario(naive, `function-naive-${point}`, trigger);
    files[`points/function-recorded-${point}.mjs`] = functionScenario(recorded, `function-recorded-${point}`, trigger);
    const yaml = trigger.replaceAll("'", '');
    files[`points/http-naive-${point}.yaml`] = httpScenario(`http-naive-${point}`, '../agents/http-naive.mjs', yaml);
    files[`points/http-recorded-${point}.yaml`] = httpScenario(
      `http-recorded-${point}`,
      '../agents/http-recorded.mjs',
      yaml,
    );
  }
  project = await userProject('crash-in-process', files);
});
afterAll(() => project.cleanup());

type Event = { type: string; t: number; message?: string; key?: string; op?: string; clientReference?: string };
type Report = {
  cells: {
    scenario: string;
    metrics: { successes: number; trials: number; coverage: { firings: number }[] };
    trials: { status: string; failed: string[]; history: Event[] }[];
  }[];
};
const report = async (out: string): Promise<Report> =>
  JSON.parse(await readFile(`${project.path}/${out}/faultline.json`, 'utf8')) as Report;
const run = (args: readonly string[]) => inProcess(['run', ...args], { cwd: project.path });

describe('crash.agent on function and http agents, in process', () => {
  it('every trigger: the naive agents fail duplicates, the recorded ones pass pass^2, the trigger fired in every trial', async () => {
    const naive = await run(['points', '--grep', 'naive', '--k', '1', '--out', 'naive', '--reporter', 'json']);
    expect(naive.code, naive.stderr).toBe(1);
    const careful = await run(['points', '--grep', 'recorded', '--k', '2', '--out', 'recorded', '--reporter', 'json']);
    expect(careful.code, careful.stderr).toBe(0);
    const cells = [...(await report('naive')).cells, ...(await report('recorded')).cells];
    expect(cells).toHaveLength(16);
    for (const kind of ['function', 'http'])
      for (const [point] of POINTS) {
        const cell = (name: string) => cells.find((c) => c.scenario === name)!;
        const bad = cell(`${kind}-naive-${point}`);
        expect(bad.trials[0]!.failed, bad.scenario).toContain('duplicates');
        const good = cell(`${kind}-recorded-${point}`);
        expect(good.metrics.successes, good.scenario).toBe(2);
        for (const c of [bad, good]) expect(c.metrics.coverage[0]!.firings, c.scenario).toBe(c.metrics.trials);
      }
  });

  it('the restart is told so, finds what the first start kept in the store in a fresh module, and the abandoned start never acts again', async () => {
    const r = await run(['told', '--k', '1', '--out', 'told', '--reporter', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const { cells } = await report('told');
    expect(cells.map((c) => c.scenario).sort()).toEqual(['told-function', 'told-http']);
    for (const cell of cells) {
      const history = cell.trials[0]!.history;
      const ends = history.filter((e) => e.type === 'agent_end');
      // One end, the restart's, 3000 ms after the crash: the first start's timer at t=1000 never placed po-9.
      const crashedAt = history.find((e) => e.type === 'agent_crash')!.t;
      expect(ends, cell.scenario).toHaveLength(1);
      expect(ends[0]!.t, cell.scenario).toBe(crashedAt + 3000);
      expect(JSON.parse(ends[0]!.message!), cell.scenario).toEqual({
        restart: true,
        restartCount: 1,
        starts: 1,
        mark: 'left by the first start',
      });
      expect(
        history.filter((e) => e.type === 'effect').map((e) => JSON.stringify(e)),
        cell.scenario,
      ).not.toContainEqual(expect.stringContaining('po-9'));
      expect(
        history.filter((e) => e.type === 'kv').map((e) => `${e.op} ${e.key}`),
        cell.scenario,
      ).toEqual(['set mark']);
      const types = history.map((e) => e.type);
      expect(types.indexOf('agent_restart'), cell.scenario).toBe(types.indexOf('agent_crash') + 1);
    }
  });

  it('a continuation of the abandoned start that no timer drives (setImmediate) never reaches the world', async () => {
    const r = await run(['background', '--k', '3', '--workers', '0', '--out', 'background', '--reporter', 'json']);
    const { cells } = await report('background');
    expect(cells.map((c) => c.scenario).sort()).toEqual(['background-function', 'background-http']);
    for (const cell of cells) {
      expect(cell.trials.map((t) => t.failed).flat(), cell.scenario).toEqual([]);
      expect(cell.metrics.successes, cell.scenario).toBe(3);
    }
    expect(r.code, r.stderr).toBe(0);
  });

  it('a restart whose module throws on its fresh import fails its trial (recovery), the same on 0 and 1 workers', async () => {
    for (const w of ['0', '1']) {
      // Each worker count in a process of its own: in this one the modules' first evaluation is spent.
      for (const key of ['__faultlineOnceFn', '__faultlineOnceHttp'])
        delete (globalThis as Record<string, unknown>)[key];
      const r = await run(['once', '--k', '1', '--workers', w, '--out', `once${w}`, '--reporter', 'json']);
      expect(r.code, r.stderr).toBe(1);
      const { cells } = await report(`once${w}`);
      expect(cells.map((c) => c.scenario).sort(), w).toEqual(['once-function', 'once-http']);
      for (const cell of cells) {
        const trial = cell.trials[0]!;
        expect(trial.failed, `${cell.scenario} on ${w} workers`).toContain('recovery');
        expect(
          trial.history.map((e) => e.type),
          cell.scenario,
        ).toContain('agent_restart');
        expect(JSON.stringify(trial.history.at(-1)), cell.scenario).toContain('evaluated twice');
      }
    }
  });

  it("the fresh module's URL is the trial's, not the process's: a restart's stack reads the same on 0 and 2 workers", async () => {
    const texts: string[] = [];
    // Two workers first: in this process, each trial's agent is then imported afresh for the first time on 0 workers.
    for (const w of ['2', '0']) {
      const r = await run([
        'stack',
        '--k',
        '3',
        '--workers',
        w,
        '--keep-failures',
        '3',
        '--out',
        `stack${w}`,
        '--reporter',
        'json',
      ]);
      expect(r.code, r.stderr).toBe(1);
      const { cells } = await report(`stack${w}`);
      texts.push(JSON.stringify(cells[0]!.trials.map((t) => t.history.find((e) => e.type === 'agent_end')!.message)));
    }
    expect(texts[0]).toContain('faultline-restart=');
    expect(texts[1]).toBe(texts[0]);
  });

  it('the same seed gives the same report on 0, 1 and 2 workers', async () => {
    const args = ['points', '--grep', 'at-25', '--k', '2', '--seed', '7', '--keep-failures', '2'];
    const texts: string[] = [];
    for (const w of ['0', '1', '2']) {
      const r = await run([...args, '--workers', w, '--out', `w${w}`, '--reporter', 'json']);
      expect(r.code, r.stderr).toBe(1);
      const { wallClock: _wallClock, ...rest } = JSON.parse(
        await readFile(`${project.path}/w${w}/faultline.json`, 'utf8'),
      ) as Record<string, unknown>;
      texts.push(JSON.stringify(rest));
    }
    expect(texts[0]).toContain('agent_restart');
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
  });
});
