/**
 * The mapping table of docs/real-models.md ("Against the public catalogues") is true: every one of
 * AgentChaos's 65 entries (./catalogues.ts) is its faultline rule run in this process on the
 * openai Chat Completions route, against a probe agent on the official openai SDK that asks the
 * model six times; the damage the probe saw on each answer matches the entry's, on exactly the
 * calls the rule's firing record says it struck (a probability rule: the calls it drew).
 */
import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { History, Rng, VirtualClock } from '../../src/core/index.js';
import { HttpFaults } from '../../src/faults/http/HttpFaults.js';
import { runWithMsw } from '../../src/faults/http/msw.js';
import { openaiService } from '../../src/model/api/modelServices.js';
import type { Model } from '../../src/model/model.js';
import { createWorld } from '../../src/world/createWorld.js';
import {
  AGENT_CHAOS_65,
  CALLS,
  catalogueTables,
  FINAL,
  FINAL_TEXT,
  type CatalogueEntry,
  type Damage,
} from './catalogues.js';
import { ORDER, START } from './support.js';

const PARAMETERS = {
  type: 'object',
  properties: {
    clientReference: { type: 'string' },
    item: { type: 'string' },
    quantity: { type: 'integer', minimum: 1 },
    amountCents: { type: 'integer', minimum: 1 },
  },
  required: ['clientReference', 'item', 'quantity', 'amountCents'],
  additionalProperties: false,
};
const TOOLS: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'create_order', description: 'Place an order', parameters: PARAMETERS } },
];
const argsOf = (n: number): Record<string, unknown> => ({ ...ORDER, clientReference: `ref-${n}` });

/** The model behind the route: each fresh conversation ("Order book n") gets a call, or the final text. */
const probeModel = (answer: 'text' | 'call'): Model => ({
  name: 'probe',
  next: ({ task }) =>
    Promise.resolve(
      answer === 'call'
        ? { kind: 'tool_calls', calls: [{ tool: 'create_order', input: argsOf(Number(task.split(' ').at(-1))) }] }
        : { kind: 'final', ...FINAL, claims: [] },
    ),
});

interface Seen {
  readonly content: string;
  readonly finish: string;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly ms: number;
}

/** One trial: the probe asks six times, each a fresh conversation; what it saw, and the calls the rule struck. */
async function probe(entry: CatalogueEntry): Promise<{ seen: Seen[]; fired: number[] }> {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const faults = new HttpFaults({
    services: [openaiService(probeModel(entry.answer))],
    plan: [entry.rule],
    clock,
    rng: new Rng(7).fork('http'),
    history,
    world,
  });
  const run = await runWithMsw(faults, clock, async () => {
    const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
    const seen: Seen[] = [];
    for (let n = 1; n <= CALLS; n++) {
      const t0 = clock.now();
      const c = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: `Order book ${n}` }],
        tools: TOOLS,
      });
      const m = c.choices[0]!.message;
      seen.push({
        content: m.content ?? '',
        finish: c.choices[0]!.finish_reason,
        calls: (m.tool_calls ?? []).flatMap((t) =>
          t.type === 'function' ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }] : [],
        ),
        ms: clock.now() - t0,
      });
    }
    return seen;
  });
  if (run.kind !== 'settled') throw new Error(`the probe did not finish: ${JSON.stringify(run)}`);
  // Each ask is one request (maxRetries 0): http-n is the n-th.
  const fired = history.events.flatMap((e) => (e.type === 'fault' ? [Number(e.request.replace(/\D+/g, ''))] : []));
  return { seen: run.value, fired };
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Whether the n-th answer is the model's own, untouched. */
function clean(s: Seen, n: number, answer: 'text' | 'call'): boolean {
  if (answer === 'text') return s.content === FINAL_TEXT && s.calls.length === 0 && s.finish === 'stop' && s.ms < 1000;
  return (
    s.finish === 'tool_calls' &&
    s.calls.length === 1 &&
    s.calls[0]!.name === 'create_order' &&
    JSON.stringify(parsed(s.calls[0]!.arguments)) === JSON.stringify(argsOf(n))
  );
}

/** Whether the n-th answer (`seen[n - 1]`) carries the damage. */
function shows(damage: Damage, seen: readonly Seen[], n: number): boolean {
  const s = seen[n - 1]!;
  const args = s.calls[0]?.arguments ?? '';
  const value = parsed(args) as Record<string, unknown> | undefined;
  switch (damage.kind) {
    case 'text':
      return s.content === damage.equals && s.calls.length === 0;
    case 'empty':
      return s.content === '' && s.calls.length === 0;
    case 'cut':
      return s.finish === 'length' && s.content.length <= damage.keep && FINAL_TEXT.startsWith(s.content);
    case 'garbled-text':
      return s.content !== FINAL_TEXT && /\uFFFD|Ã©/.test(s.content);
    case 'no-arguments':
      return args === '{}';
    case 'not-json':
      return s.calls.length === 1 && value === undefined;
    case 'garbled-arguments':
      return value !== undefined && args.includes('\uFFFD');
    case 'renamed-keys':
      return (
        value !== undefined &&
        Object.keys(value).length === 4 &&
        Object.keys(value).every((k) => !(k in PARAMETERS.properties))
      );
    case 'no-calls':
      return s.calls.length === 0 && s.content === '';
    case 'filtered':
      return s.calls.length === 0 && s.finish === 'content_filter';
    case 'previous':
      return n > 1 && JSON.stringify(s.calls) === JSON.stringify(seen[n - 2]!.calls);
    case 'another-value':
      return (
        value !== undefined &&
        Object.keys(value).join() === Object.keys(argsOf(n)).join() &&
        JSON.stringify(value) !== JSON.stringify(argsOf(n))
      );
    case 'slow':
      return s.ms >= damage.ms && s.content === FINAL_TEXT;
  }
}

describe("AgentChaos's 65 entries, each its faultline rule on the openai SDK", () => {
  it('has 65 entries, each named once', () => {
    expect(new Set(AGENT_CHAOS_65.map((e) => e.id)).size).toBe(65);
  });

  it.each(AGENT_CHAOS_65.map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    const { seen, fired } = await probe(entry);
    // A probability rule strikes the calls it drew (seed 7: some, not all), each drawn anew.
    if (entry.fires === 'drawn') {
      expect(entry.rule.match?.probability).toBe(0.3);
      expect(fired.length).toBeGreaterThan(0);
      expect(fired.length).toBeLessThan(CALLS);
    } else expect(fired).toEqual(entry.fires);
    // What the agent saw, call by call: the damage where the rule struck, the model's own answer elsewhere.
    const got = seen.map((_, i) =>
      shows(entry.damage, seen, i + 1) ? 'damaged' : clean(seen[i]!, i + 1, entry.answer) ? 'clean' : 'other',
    );
    expect(got).toEqual(seen.map((_, i) => (fired.includes(i + 1) ? 'damaged' : 'clean')));
  });
});

describe('the docs', () => {
  it('carry the mapping table as the data the cases above run', async () => {
    const doc = await readFile(new URL('../../docs/real-models.md', import.meta.url), 'utf8');
    expect(doc).toContain(catalogueTables());
  });
});
