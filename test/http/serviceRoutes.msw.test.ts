/** A service declared with `defineService`, served over HTTP in its declared API shape (or as RPC), under msw. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, ServiceError } from '../../src/public/index.js';
import { createHttpTrial, defaultServiceUrl, runWithMsw, serviceHttp } from '../../src/public/msw.js';
import type { FaultPlan } from '../../src/faults/plan.js';

const notes = defineService({
  name: 'notes',
  state: (): Record<string, { title: string; ref: string }> => ({}),
  tools: {
    add_note: {
      description: 'Add a note; ref is your business id for it.',
      risk: 'write',
      businessKey: 'ref',
      input: z.object({ ref: z.string(), title: z.string().min(1) }).strict(),
      run(input, ctx) {
        const noteId = ctx.id('note');
        ctx.state[noteId] = input;
        ctx.effect('note.added', { key: input.ref, data: { noteId } });
        return { noteId, ...input };
      },
    },
    get_note: {
      description: 'Get a note.',
      risk: 'read',
      input: z.object({ noteId: z.string(), verbose: z.string().optional() }).strict(),
      run({ noteId }, ctx) {
        const note = ctx.state[noteId];
        if (!note)
          throw new ServiceError(404, { code: 'note_not_found', message: `no note ${noteId}`, param: 'noteId' });
        return { noteId, ...note };
      },
    },
  },
  http: {
    baseUrl: 'https://notes.example.test/v1',
    routes: [
      { method: 'POST', path: '/notes', tool: 'add_note', status: 201 },
      { method: 'GET', path: '/notes/lookup', tool: 'add_note', purpose: 'status' },
      { method: 'GET', path: '/notes/:noteId', tool: 'get_note', output: (note) => ({ data: note }) },
    ],
    error: (e) => ({
      headers: { 'x-request-id': 'req-9' },
      body: { errors: [{ code: e.code, detail: e.message, field: e.param }] },
    }),
  },
});

const plain = defineService({
  name: 'counter',
  state: { n: 0 },
  tools: {
    bump: {
      description: 'Add one',
      risk: 'write',
      input: z.object({}).strict(),
      run: (_input, ctx) => ({ n: ++ctx.state.n }),
    },
  },
});

const BASE = 'https://notes.example.test/v1';

function trial(plan: FaultPlan = []) {
  return createHttpTrial({
    plan,
    serviceNames: [notes, plain],
    services: (world) => serviceHttp(world, [notes, plain]),
  });
}

async function send(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text === '' ? undefined : text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: kept as text.
  }
  return { status: res.status, body, headers: Object.fromEntries(res.headers) };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('defineService over HTTP (msw)', () => {
  it('answers its routes in the declared shape: status, output mapping, path and query parameters', async () => {
    const t = trial();
    const run = await runWithMsw(t.faults, t.clock, async () => [
      await send(`${BASE}/notes`, json({ ref: 'r1', title: 'hello' }, { 'idempotency-key': 'k1' })),
      await send(`${BASE}/notes/note-1?verbose=yes`),
      await send(`${BASE}/notes/note-1`, { method: 'HEAD' }),
    ]);
    expect(run.kind === 'settled' && run.value.map((r) => [r.status, r.body])).toEqual([
      [201, { noteId: 'note-1', ref: 'r1', title: 'hello' }],
      [200, { data: { noteId: 'note-1', ref: 'r1', title: 'hello' } }],
      [200, undefined],
    ]);
    expect(t.world.ledger.effects.map((e) => [e.service, e.effect, e.key, e.idempotencyKey])).toEqual([
      ['notes', 'note.added', 'r1', 'k1'],
    ]);
  });

  it("renders business errors in the API's own error shape, and leaves a fault's answer alone", async () => {
    const t = trial([{ match: { tool: 'add_note' }, fault: { kind: 'unavailable', status: 503 } }]);
    const run = await runWithMsw(t.faults, t.clock, async () => [
      await send(`${BASE}/notes/note-9`),
      await send(`${BASE}/notes`, json({ ref: 'r1', title: 'x' })),
    ]);
    if (run.kind !== 'settled') throw new Error(run.kind === 'threw' ? String(run.error) : run.kind);
    const [missing, faulted] = run.value;
    expect(missing).toMatchObject({
      status: 404,
      body: { errors: [{ code: 'note_not_found', detail: 'no note note-9', field: 'noteId' }] },
      headers: { 'x-request-id': 'req-9' },
    });
    expect(faulted?.status).toBe(503);
    expect(faulted?.body).not.toHaveProperty('errors');
  });

  it('answers the status query by Idempotency-Key or by the business key in the query (R21)', async () => {
    const t = trial();
    const run = await runWithMsw(t.faults, t.clock, async () => {
      await send(`${BASE}/notes`, json({ ref: 'r1', title: 'hello' }, { 'idempotency-key': 'k1' }));
      return [
        await send(`${BASE}/notes/lookup`, { headers: { 'idempotency-key': 'k1' } }),
        await send(`${BASE}/notes/lookup?ref=r1`),
        await send(`${BASE}/notes/lookup?ref=r2`),
      ];
    });
    expect(run.kind === 'settled' && run.value.map((r) => r.body)).toEqual([
      { state: 'succeeded', value: { noteId: 'note-1', ref: 'r1', title: 'hello' } },
      { state: 'succeeded', value: { noteId: 'note-1', ref: 'r1', title: 'hello' } },
      { state: 'not_found' },
    ]);
    expect(t.history.events.filter((e) => e.type === 'delivery').map((e) => e.tool)).toEqual([
      'add_note',
      'add_note',
      'add_note',
      'add_note',
    ]);
  });

  it('serves a service with no routes of its own as RPC at https://{name}.faultline.test', async () => {
    const t = trial();
    expect(defaultServiceUrl('counter')).toBe('https://counter.faultline.test');
    const run = await runWithMsw(t.faults, t.clock, async () => [
      await send('https://counter.faultline.test/tools/bump', json({})),
      await send('https://counter.faultline.test/tools/bump', json({ extra: 1 })),
    ]);
    expect(run.kind === 'settled' && run.value.map((r) => [r.status, r.body])).toEqual([
      [200, { n: 1 }],
      [400, { error: { type: 'invalid_request_error', issues: [{ path: '', message: 'Unrecognized key: "extra"' }] } }],
    ]);
  });
});
