import { describe, expect, it } from 'vitest';
import { Rng, VirtualClock } from '../../../core/index.js';
import type { ModelMistake } from '../../../faults/fault.js';
import type { HttpRoute } from '../../../faults/http/HttpRoute.js';
import { ScriptedModel } from '../../ScriptedModel.js';
import { anthropicMessages } from '../anthropicMessages.js';
import { openaiService } from '../modelServices.js';
import { openaiChat } from '../openaiChat.js';
import { openaiResponses } from '../openaiResponses.js';
import { invalidArguments, malformedArguments, wrongTarget } from './argumentMistakes.js';
import { nearMissName } from './nearMissName.js';

const SCHEMA = {
  type: 'object',
  properties: {
    orderId: { type: 'string' },
    reason: { type: 'string', enum: ['damaged', 'late'] },
    amountCents: { type: 'integer', minimum: 1, maximum: 5000 },
  },
  required: ['orderId', 'amountCents'],
  additionalProperties: false,
};
const ARGS = JSON.stringify({ orderId: 'ord-1', reason: 'late', amountCents: 1500 });
const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('the arguments a mistake draws', () => {
  it('malformed: never JSON, for any seed and any arguments (the empty object too)', () => {
    for (let seed = 0; seed < 200; seed++)
      for (const args of [ARGS, '{}', '{"a":1}'])
        expect(parses(malformedArguments(args, new Rng(seed))), `${seed} ${args}`).toBe(false);
  });

  it("invalid: valid JSON that the schema refuses, each way it can break, drawn from the schema's own fields", () => {
    const rng = new Rng(1);
    const missing = JSON.parse(invalidArguments(ARGS, SCHEMA, rng, 'missing_required')!.arguments) as object;
    expect(Object.keys(missing).length).toBe(2);
    expect(['orderId', 'amountCents'].some((k) => !(k in missing))).toBe(true);
    expect(JSON.parse(invalidArguments(ARGS, SCHEMA, rng, 'unknown_key')!.arguments)).toMatchObject({
      note: 'as you asked',
    });
    const typed = JSON.parse(invalidArguments(ARGS, SCHEMA, rng, 'wrong_type')!.arguments) as Record<string, unknown>;
    expect(
      Object.entries(typed).some(([k, v]) => typeof v !== typeof (JSON.parse(ARGS) as Record<string, unknown>)[k]),
    ).toBe(true);
    const ranged = JSON.parse(invalidArguments(ARGS, SCHEMA, new Rng(3), 'out_of_range')!.arguments) as Record<
      string,
      unknown
    >;
    expect(ranged['reason'] === 'damaged_other' || ranged['amountCents'] === 5001).toBe(true);
    // A schema with no bound and no enum cannot be broken that way: no mistake rather than a pretend one.
    expect(
      invalidArguments('{"q":"x"}', { type: 'object', properties: { q: { type: 'string' } } }, rng, 'out_of_range'),
    ).toBeUndefined();
    expect(invalidArguments('not json', SCHEMA, rng)).toBeUndefined();
  });

  it('invalid, named only: every key renamed to one the schema does not declare, or no arguments at all; never drawn', () => {
    const renamed = JSON.parse(invalidArguments(ARGS, SCHEMA, new Rng(1), 'renamed_keys')!.arguments) as object;
    expect(renamed).toEqual({ order_id: 'ord-1', reason_name: 'late', amount_cents: 1500 });
    expect(invalidArguments(ARGS, SCHEMA, new Rng(1), 'no_arguments')!.arguments).toBe('{}');
    // A schema that requires nothing is not broken by no arguments.
    expect(invalidArguments('{"q":"x"}', { properties: { q: {} } }, new Rng(1), 'no_arguments')).toBeUndefined();
    // Drawn when unnamed among the four it always drew from: the same seed gives the same history as before.
    for (let seed = 0; seed < 100; seed++)
      expect(['missing_required', 'unknown_key', 'wrong_type', 'out_of_range']).toContain(
        invalidArguments(ARGS, SCHEMA, new Rng(seed))!.break,
      );
  });

  it('wrong target: another id of the same kind the world holds, else a slipped amount; nothing when neither', () => {
    const entities = ['ord-1', 'ord-2', 'cus-1', 'ord-3'];
    for (let seed = 0; seed < 50; seed++) {
      const moved = JSON.parse(wrongTarget(ARGS, entities, new Rng(seed))!) as Record<string, unknown>;
      expect(['ord-2', 'ord-3']).toContain(moved['orderId']);
      expect(moved['amountCents']).toBe(1500);
    }
    const slipped = JSON.parse(wrongTarget('{"orderId":"x-9","amountCents":1500}', entities, new Rng(2))!) as {
      amountCents: number;
    };
    expect([15000, 150, 1501, 1499]).toContain(slipped.amountCents);
    expect(wrongTarget('{"subject":"printer"}', entities, new Rng(2))).toBeUndefined();
    // No plausible slip of a negative amount: no mistake, rather than the key dropped (a missing argument).
    for (let seed = 0; seed < 20; seed++) expect(wrongTarget('{"delta":-3}', entities, new Rng(seed))).toBeUndefined();
  });

  it('unknown tool: a near miss of an offered name, never an offered one', () => {
    const offered = ['get_order', 'get_orders', 'refund_order'];
    for (let seed = 0; seed < 50; seed++) {
      const name = nearMissName('get_order', offered, new Rng(seed))!;
      expect(offered).not.toContain(name);
      expect(name).toMatch(/ord/i);
    }
  });
});

/** The stand-in's chat route, its first answer a call of refund_order on ord-1. */
function chatRoute(): HttpRoute {
  const model = new ScriptedModel({
    steps: [{ tool: 'refund_order', input: { orderId: 'ord-1', amountCents: 1500 } }],
  });
  return openaiService(model).routes.find((r) => r.operation === 'model:openai.chat.completions')!;
}
const BODY = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Refund order ord-1' }],
  tools: [{ type: 'function', function: { name: 'refund_order', parameters: SCHEMA } }],
};
const make = async (route: HttpRoute, fault: ModelMistake, body: unknown = BODY, entities: string[] = []) =>
  route.mistake!(
    fault,
    body,
    { clock: new VirtualClock(0), request: 'http-1' },
    { rng: new Rng(7), entities: () => entities },
  );

describe("the stand-in's mistakes on its route", () => {
  it('breaks the call it meant, and records what it meant and what it said', async () => {
    const made = await make(chatRoute(), { kind: 'wrong_target' }, BODY, ['ord-1', 'ord-2']);
    expect(made).toMatchObject({
      kind: 'told',
      held: { calls: [{ name: 'refund_order', arguments: '{"orderId":"ord-1","amountCents":1500}' }] },
      answered: { calls: [{ name: 'refund_order', arguments: '{"orderId":"ord-2","amountCents":1500}' }] },
    });
  });

  it("ends a cut answer as the API does, and answers context_length with the API's own 400", async () => {
    const cut = await make(chatRoute(), { kind: 'truncated', keep: 5 });
    expect(
      cut.kind === 'told' && (cut.answer as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason,
    ).toBe('length');
    const long = await make(chatRoute(), { kind: 'context_length' });
    expect(long).toMatchObject({
      kind: 'told',
      answered: { status: 400, body: { error: { code: 'context_length_exceeded' } } },
    });
  });

  it('replays only when there was an answer before, and it differs', async () => {
    const route = chatRoute();
    expect(await make(route, { kind: 'replayed' })).toEqual({ kind: 'none' });
  });
});

describe('each API writes a mistake in its own shape, whole and streamed', () => {
  const said = { text: 'Half an ans', calls: [], stop: 'length' as const };
  it('Responses: incomplete for max_output_tokens, a refusal part, and a stream that ends response.incomplete', () => {
    const whole = { id: 'resp_1', object: 'response', status: 'completed', output: [] };
    const cut = openaiResponses.mistaken(whole, said) as { status: string; incomplete_details: unknown };
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    const frames = openaiResponses.stream(cut, {});
    expect(frames.at(-1)).toMatch(/^event: response\.incomplete\n/);
    const refused = openaiResponses.mistaken(whole, { text: '', calls: [], stop: 'refusal', refusal: 'No.' });
    expect(refused).toMatchObject({
      status: 'completed',
      output: [{ content: [{ type: 'refusal', refusal: 'No.' }] }],
    });
    expect(openaiResponses.stream(refused, {}).some((f) => f.includes('response.refusal.delta'))).toBe(true);
  });

  it('Chat Completions: a refusal streams in delta.refusal; Messages: max_tokens and a text input it cannot parse', () => {
    const chat = openaiChat.mistaken(
      { choices: [{ index: 0 }] },
      { text: '', calls: [], stop: 'refusal', refusal: 'No.' },
    );
    expect(chat).toMatchObject({ choices: [{ message: { content: null, refusal: 'No.' }, finish_reason: 'stop' }] });
    expect(openaiChat.stream(chat, {}).some((f) => f.includes('"refusal":"No."'))).toBe(true);
    const call = { id: 'toolu-1', name: 'refund_order', arguments: '{"orderId":"ord-' };
    const msg = anthropicMessages.mistaken({ content: [] }, { text: '', calls: [call], stop: 'length' });
    expect(msg).toMatchObject({
      stop_reason: 'max_tokens',
      content: [{ type: 'tool_use', input: '{"orderId":"ord-' }],
    });
    expect(anthropicMessages.stream(msg, {}).join('')).toContain('"partial_json":"{\\"orderId\\"');
  });
});
