/**
 * The lies that look like success, drawn from a tool's declared `output` schema: a user's
 * `defineService` in process, through the public API only. `wrong_value` answers another
 * member of the declared enum and `empty` the schema's empty value; the same tool without a
 * schema is lied to from the answer's JSON shape.
 */
import { describe, expect, it } from 'vitest';
import {
  defineAgent,
  defineScenario,
  defineService,
  rulebookDefault,
  runTrial,
  z,
  type Fault,
  type HistoryEvent,
} from '../src/public/index.js';

const STATUSES = ['open', 'paid', 'shipped', 'cancelled'] as const;

const Order = z.object({
  status: z.enum(STATUSES),
  items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })),
  note: z.string().nullable(),
});

const HELD = { status: 'paid', items: [{ sku: 'a', qty: 1 }], note: 'leave at the door' };

/** One read tool answering HELD, with or without its output schema declared. */
const shop = (declared: boolean) =>
  defineService({
    name: 'shop',
    state: {},
    tools: {
      get_order: {
        description: 'One order.',
        risk: 'read',
        input: z.object({}).strict(),
        ...(declared && { output: Order }),
        run: () => structuredClone(HELD),
      },
    },
  });

const agent = defineAgent(async ({ tools }) => {
  const read = await tools['get_order']!({});
  return {
    outcome: read.kind === 'ok' ? 'completed' : 'failed',
    message: JSON.stringify(read.kind === 'ok' ? read.value : read.kind),
  };
});

async function lieUnder(fault: Fault, declared: boolean, runSeed: number) {
  const scenario = defineScenario({
    name: 'declared-output-lies',
    services: [shop(declared)],
    faults: [{ match: { tool: 'get_order' }, fault }],
    agent: { kind: 'function', task: 'Read the order', fn: agent },
    checks: ['duplicates'],
  });
  const trial = await runTrial({ scenario, config: rulebookDefault, runSeed, trialIndex: 0 });
  const lies = trial.history.filter((e): e is Extract<HistoryEvent, { type: 'lie' }> => e.type === 'lie');
  return { trial, lies };
}

describe('lies drawn from a declared output schema, in process', () => {
  it('wrong_value { path: status } answers another member of the declared enum, whatever the seed', async () => {
    const seen = new Set<unknown>();
    for (let runSeed = 1; runSeed <= 12; runSeed++) {
      const { lies } = await lieUnder({ kind: 'wrong_value', path: 'status' }, true, runSeed);
      expect(lies).toHaveLength(1);
      const lie = lies[0]!;
      expect(lie.held).toEqual(HELD);
      const answered = lie.answered as typeof HELD;
      expect(STATUSES).toContain(answered.status);
      expect(answered.status).not.toBe('paid');
      expect({ ...answered, status: 'paid' }).toEqual(HELD);
      expect(Order.safeParse(answered).success).toBe(true);
      seen.add(answered.status);
    }
    // Drawn from the seed: more than one other member comes up.
    expect(seen.size).toBeGreaterThan(1);
  });

  it('wrong_value draws the same member for the same seed: the history is the same bytes', async () => {
    const a = await lieUnder({ kind: 'wrong_value', path: 'status' }, true, 7);
    const b = await lieUnder({ kind: 'wrong_value', path: 'status' }, true, 7);
    expect(JSON.stringify(b.trial.history)).toBe(JSON.stringify(a.trial.history));
  });

  it("empty answers the schema's empty value: the list emptied, the nullable field null, the enum kept", async () => {
    const { lies, trial } = await lieUnder({ kind: 'empty' }, true, 1);
    expect(lies.map((l) => l.answered)).toEqual([{ status: 'paid', items: [], note: null }]);
    // The agent was told the lie, as a 200.
    expect(trial.history.find((e) => e.type === 'response')).toMatchObject({ result: 'ok', status: 200 });
  });

  it('without a declared schema the lie comes from the JSON shape: a random string, the list emptied with the note kept', async () => {
    const wrong = await lieUnder({ kind: 'wrong_value', path: 'status' }, false, 1);
    const status = (wrong.lies[0]?.answered as typeof HELD).status;
    expect(typeof status).toBe('string');
    expect(STATUSES).not.toContain(status);
    const empty = await lieUnder({ kind: 'empty' }, false, 1);
    expect(empty.lies.map((l) => l.answered)).toEqual([{ status: 'paid', items: [], note: 'leave at the door' }]);
  });
});

describe('a lie that could change nothing is refused, or does not count', () => {
  const load = (fault: Fault, declared: boolean, mayNotFire?: 'may-not-fire') =>
    defineScenario({
      name: 'declared-output-paths',
      services: [shop(declared)],
      faults: [{ match: { tool: 'get_order' }, fault, ...(mayNotFire && { expect: mayNotFire }) }],
      agent: { kind: 'function', task: 'Read the order', fn: agent },
      checks: ['duplicates'],
    });

  it.each(['no.such.field', 'status.deeper', 'items.x', 'items.0.price', 'note.0'])(
    'wrong_value { path: %s }: refused at load where the tool declares its output',
    (path) => {
      expect(() => load({ kind: 'wrong_value', path }, true)).toThrow(
        `faults[0].fault.path: "${path}": no answer of "get_order" has that field by its declared output`,
      );
    },
  );

  it.each(['status', 'items.0.qty', 'items.3.sku', 'note'])(
    'wrong_value { path: %s }: a path the output declares loads',
    (path) => {
      expect(() => load({ kind: 'wrong_value', path }, true)).not.toThrow();
    },
  );

  it('without a declared output, or with expect: may-not-fire, an unknown path loads and, telling nothing, does not fire', async () => {
    expect(() => load({ kind: 'wrong_value', path: 'no.such.field' }, true, 'may-not-fire')).not.toThrow();
    const scenario = load({ kind: 'wrong_value', path: 'no.such.field' }, false);
    const trial = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0 });
    expect(trial.history.filter((e) => e.type === 'fault')).toHaveLength(1);
    expect(trial.history.filter((e) => e.type === 'lie')).toEqual([]);
    expect(trial.stats.firings).toEqual([]);
  });

  it('truncated { keep } longer than every list tells nothing: no firing', async () => {
    const scenario = load({ kind: 'truncated', keep: 1_000_000 }, true);
    const trial = await runTrial({ scenario, config: rulebookDefault, runSeed: 1, trialIndex: 0 });
    expect(trial.history.filter((e) => e.type === 'lie')).toEqual([]);
    expect(trial.stats.firings).toEqual([]);
    expect(trial.stats.faults).toBe(0);
  });
});
