import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { HttpError, type ClockRun } from '../../src/core/index.js';
// Neither adapter: each test file imports the one it runs under (see NOTES-node20.md).
import {
  createHttpTrial,
  DEFAULT_TRIAL_START,
  HTTP_METHODS,
  reply,
  type HttpRoute,
  type HttpService,
  type HttpTrial,
} from '../../src/faults/http/index.js';
import type { FaultPlan } from '../../src/faults/plan.js';

/**
 * A user's own API, hand-written as `HttpRoute`s over an in-memory map: every method, path
 * parameters, JSON, form and text bodies, request headers, explicit answers (`reply`), a
 * thrown `HttpError`, and business errors rendered in the API's own error shape
 * (`{ errors: [{ code, detail }] }` with an `x-error-code` header) by the service's mapper,
 * one route overriding it. Shared by the msw and nock tests.
 */
export const NOTES = 'http://notes.test';

interface Note {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  readonly tags: readonly string[];
  readonly by?: string;
}

/** The API's business error: a status and a code, not an HttpError. */
class NoteError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const asNote = (id: string, body: unknown, by: string | undefined): Note => {
  if (typeof body === 'string')
    return { id, title: body.split('\n')[0]!, text: body, tags: [], ...(by === undefined ? {} : { by }) };
  const b = (body ?? {}) as { title?: unknown; text?: unknown; tags?: unknown; meta?: { by?: unknown } };
  if (typeof b.title !== 'string' || b.title === '') throw new NoteError(400, 'title_missing', 'a note needs a title');
  const tags = Array.isArray(b.tags) ? b.tags.map(String) : typeof b.tags === 'string' ? [b.tags] : [];
  const author = typeof b.meta?.by === 'string' ? b.meta.by : by;
  return {
    id,
    title: b.title,
    text: typeof b.text === 'string' ? b.text : '',
    tags,
    ...(author === undefined ? {} : { by: author }),
  };
};

export const ALLOW = HTTP_METHODS.join(', ');

/** The notes API over `store`; `seen` collects what each POST's `input` saw of the request. */
export function notesService(store: Map<string, Note>, seen: unknown[] = []): HttpService {
  const find = (id: string | undefined): Note => {
    const note = id === undefined ? undefined : store.get(id);
    if (!note) throw new NoteError(404, 'note_not_found', `no note ${String(id)}`);
    return note;
  };
  const byId = (req: { params: Readonly<Record<string, string>> }): string | undefined => req.params['id'];
  const routes: HttpRoute[] = [
    {
      method: 'POST',
      path: '/notes',
      operation: 'create_note',
      okStatus: 201,
      input: (req) => {
        const input = {
          body: req.body,
          key: req.headers['idempotency-key'],
          client: req.headers['x-client'],
          type: req.headers['content-type'],
        };
        seen.push(input);
        return input;
      },
      serve: (input) => {
        const { body, client } = input as { body: unknown; client?: string };
        const note = asNote(`n${store.size + 1}`, body, client);
        store.set(note.id, note);
        return reply(201, note, { location: `/notes/${note.id}` });
      },
    },
    { method: 'GET', path: '/notes/:id', operation: 'get_note', input: byId, serve: (id) => find(id as string) },
    // The same lookup: a missing note is a 404 with the error headers, and no body goes out.
    { method: 'HEAD', path: '/notes/:id', operation: 'head_note', input: byId, serve: (id) => find(id as string) },
    {
      method: 'OPTIONS',
      path: '/notes',
      operation: 'notes_options',
      input: () => null,
      serve: () => reply(204, undefined, { allow: ALLOW }),
    },
    {
      method: 'PUT',
      path: '/notes/:id',
      operation: 'replace_note',
      input: (req) => ({ id: byId(req), body: req.body }),
      serve: (input) => {
        const { id, body } = input as { id: string; body: unknown };
        const old = find(id);
        const note = asNote(id, body, old.by);
        store.set(id, note);
        return note;
      },
    },
    {
      method: 'PATCH',
      path: '/notes/:id',
      operation: 'update_note',
      input: (req) => ({ id: byId(req), body: req.body }),
      serve: (input) => {
        const { id, body } = input as { id: string; body: Record<string, unknown> };
        const note = asNote(id, { ...find(id), ...body }, undefined);
        store.set(id, note);
        return note;
      },
    },
    {
      method: 'DELETE',
      path: '/notes/:id',
      operation: 'delete_note',
      input: byId,
      serve: (id) => {
        find(id as string);
        store.delete(id as string);
        return reply(204);
      },
    },
    // TRACE echoes the request line back, as a server that allows it does.
    {
      method: 'TRACE',
      path: '/notes',
      operation: 'trace_notes',
      input: (req) => `${req.method} /notes`,
      serve: (line) => reply(200, line, { 'content-type': 'message/http' }),
    },
    {
      method: 'POST',
      path: '/notes/:id/lock',
      operation: 'lock_note',
      input: byId,
      serve: (id) => {
        find(id as string);
        throw new HttpError(423, 'Locked', { message: 'note is locked by another editor' }, { 'retry-after': '3' });
      },
    },
    {
      method: 'GET',
      path: '/notes/:id/export',
      operation: 'export_note',
      input: byId,
      serve: (id) => find(id as string),
      // This route's own shape, before the service's.
      error: (e) => (e instanceof NoteError ? { status: 410, body: `gone: ${e.message}` } : undefined),
    },
    {
      method: 'GET',
      path: '/crash',
      operation: 'crash',
      input: () => null,
      serve: () => {
        throw new Error('database is on fire');
      },
    },
  ];
  return {
    baseUrl: NOTES,
    routes,
    error: (e) =>
      e instanceof NoteError
        ? { headers: { 'x-error-code': e.code }, body: { errors: [{ code: e.code, detail: e.message }] } }
        : undefined,
  };
}

export interface NotesTrial extends HttpTrial {
  readonly store: Map<string, Note>;
  readonly seen: unknown[];
}

/** A trial of the notes API holding one note, `n1`, under `plan`. */
export function notesTrial(plan: FaultPlan = []): NotesTrial {
  const store = new Map<string, Note>([['n1', { id: 'n1', title: 'First', text: 'hello', tags: [] }]]);
  const seen: unknown[] = [];
  const trial = createHttpTrial({ plan, serviceNames: [], services: () => [notesService(store, seen)] });
  return { ...trial, store, seen };
}

export interface Sent {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface Received {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

const HEADERS = ['content-type', 'location', 'allow', 'x-error-code', 'retry-after', 'x-should-retry'];
const picked = (get: (name: string) => string | undefined): Record<string, string> =>
  Object.fromEntries(HEADERS.flatMap((h) => (get(h) === undefined ? [] : [[h, get(h)!]])));

/** One request with node:http, as older SDKs and got send it; a 10 s socket timeout. An error is its socket code, or `timeout`. */
export function sendWithNodeHttp(req: Sent): Promise<Received | { error: string }> {
  return new Promise((resolve) => {
    const r = http.request(`${NOTES}${req.path}`, { method: req.method, headers: req.headers ?? {} });
    r.setTimeout(10_000, () => r.destroy(Object.assign(new Error('socket timeout'), { code: 'timeout' })));
    r.on('error', (e: Error & { code?: string }) => resolve({ error: e.code ?? e.message }));
    r.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: picked((h) => res.headers[h] as string | undefined), text }),
      );
    });
    r.end(req.body);
  });
}

/** One request with global fetch and a 10 s `AbortSignal.timeout`. An error is the socket code under `fetch failed`, or `timeout`. */
export async function sendWithFetch(req: Sent): Promise<Received | { error: string }> {
  try {
    const init: RequestInit = {
      method: req.method,
      headers: req.headers ?? {},
      signal: AbortSignal.timeout(10_000),
      ...(req.body === undefined ? {} : { body: req.body }),
    };
    const res = await fetch(`${NOTES}${req.path}`, init);
    return { status: res.status, headers: picked((h) => res.headers.get(h) ?? undefined), text: await res.text() };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return { error: err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.name) };
  }
}

const JSON_TYPE = 'application/json';
const created = (id: string, note: object): Received => ({
  status: 201,
  headers: { 'content-type': JSON_TYPE, location: `/notes/${id}` },
  text: JSON.stringify({ id, ...note }),
});

/** One exchange with the notes API and what any client must see of it. */
export interface NotesCase {
  readonly name: string;
  readonly send: Sent;
  readonly expect: Received;
  /** The route's operation: what a plan's `match.tool` names, and what the history records. */
  readonly operation: string;
  /** What the POST route's `input` saw, when it is one. */
  readonly input?: unknown;
}

const notFound: Received = {
  status: 404,
  headers: { 'content-type': JSON_TYPE, 'x-error-code': 'note_not_found' },
  text: JSON.stringify({ errors: [{ code: 'note_not_found', detail: 'no note n9' }] }),
};

/** Every method, every body type, every answer shape; TRACE is sent by node:http only. */
export const NOTES_CASES: readonly NotesCase[] = [
  {
    name: 'POST a JSON body: the route sees it parsed, and Idempotency-Key and the API’s own header lower-cased',
    operation: 'create_note',
    send: {
      method: 'POST',
      path: '/notes',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1', 'X-Client': 'cli' },
      body: '{"title":"Shopping","tags":["home"]}',
    },
    input: { body: { title: 'Shopping', tags: ['home'] }, key: 'k-1', client: 'cli', type: 'application/json' },
    expect: created('n2', { title: 'Shopping', text: '', tags: ['home'], by: 'cli' }),
  },
  {
    name: 'POST a form body: nested keys and repeated ones parsed as a form',
    operation: 'create_note',
    send: {
      method: 'POST',
      path: '/notes',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Trip&text=to+Lyon&tags[]=travel&tags[]=fr&meta[by]=ana',
    },
    input: {
      body: { title: 'Trip', text: 'to Lyon', tags: ['travel', 'fr'], meta: { by: 'ana' } },
      type: 'application/x-www-form-urlencoded',
    },
    expect: created('n2', { title: 'Trip', text: 'to Lyon', tags: ['travel', 'fr'], by: 'ana' }),
  },
  {
    name: 'POST a text body: the route sees the text',
    operation: 'create_note',
    send: { method: 'POST', path: '/notes', headers: { 'content-type': 'text/plain' }, body: 'Title line\nmore' },
    input: { body: 'Title line\nmore', type: 'text/plain' },
    expect: created('n2', { title: 'Title line', text: 'Title line\nmore', tags: [] }),
  },
  {
    name: 'POST without a title: the business error in the API’s own shape, status and header',
    operation: 'create_note',
    send: { method: 'POST', path: '/notes', headers: { 'content-type': 'application/json' }, body: '{}' },
    expect: {
      status: 400,
      headers: { 'content-type': JSON_TYPE, 'x-error-code': 'title_missing' },
      text: JSON.stringify({ errors: [{ code: 'title_missing', detail: 'a note needs a title' }] }),
    },
  },
  {
    name: 'GET a note by its path parameter',
    operation: 'get_note',
    send: { method: 'GET', path: '/notes/n1' },
    expect: {
      status: 200,
      headers: { 'content-type': JSON_TYPE },
      text: JSON.stringify({ id: 'n1', title: 'First', text: 'hello', tags: [] }),
    },
  },
  {
    name: 'GET a missing note: 404 in the API’s own shape',
    operation: 'get_note',
    send: { method: 'GET', path: '/notes/n9' },
    expect: notFound,
  },
  {
    name: 'HEAD a note: status and headers, no body',
    operation: 'head_note',
    send: { method: 'HEAD', path: '/notes/n1' },
    expect: { status: 200, headers: { 'content-type': JSON_TYPE }, text: '' },
  },
  {
    name: 'HEAD a missing note: the 404 and its error header, no body',
    operation: 'head_note',
    send: { method: 'HEAD', path: '/notes/n9' },
    expect: { ...notFound, text: '' },
  },
  {
    name: 'HEAD on a path only a GET route serves: that route, without the body',
    operation: 'export_note',
    send: { method: 'HEAD', path: '/notes/n1/export' },
    expect: { status: 200, headers: { 'content-type': JSON_TYPE }, text: '' },
  },
  {
    name: 'OPTIONS: a 204 with Allow, no body',
    operation: 'notes_options',
    send: { method: 'OPTIONS', path: '/notes' },
    expect: { status: 204, headers: { allow: ALLOW }, text: '' },
  },
  {
    name: 'PUT replaces a note (JSON)',
    operation: 'replace_note',
    send: {
      method: 'PUT',
      path: '/notes/n1',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Renamed","text":"new"}',
    },
    expect: {
      status: 200,
      headers: { 'content-type': JSON_TYPE },
      text: JSON.stringify({ id: 'n1', title: 'Renamed', text: 'new', tags: [] }),
    },
  },
  {
    name: 'PATCH merges into a note (form)',
    operation: 'update_note',
    send: {
      method: 'PATCH',
      path: '/notes/n1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=patched',
    },
    expect: {
      status: 200,
      headers: { 'content-type': JSON_TYPE },
      text: JSON.stringify({ id: 'n1', title: 'First', text: 'patched', tags: [] }),
    },
  },
  {
    name: 'DELETE: a 204, no body',
    operation: 'delete_note',
    send: { method: 'DELETE', path: '/notes/n1' },
    expect: { status: 204, headers: {}, text: '' },
  },
  {
    name: 'TRACE: the request line echoed',
    operation: 'trace_notes',
    send: { method: 'TRACE', path: '/notes' },
    expect: { status: 200, headers: { 'content-type': 'message/http' }, text: 'TRACE /notes' },
  },
  {
    name: 'a thrown HttpError: its status, headers and JSON body',
    operation: 'lock_note',
    send: { method: 'POST', path: '/notes/n1/lock' },
    expect: {
      status: 423,
      headers: { 'content-type': JSON_TYPE, 'retry-after': '3' },
      text: JSON.stringify({ message: 'note is locked by another editor' }),
    },
  },
  {
    name: 'a route’s own error mapper before the service’s',
    operation: 'export_note',
    send: { method: 'GET', path: '/notes/n9/export' },
    expect: { status: 410, headers: { 'content-type': 'text/plain; charset=utf-8' }, text: 'gone: no note n9' },
  },
  {
    name: 'any other thrown error stays a 500',
    operation: 'crash',
    send: { method: 'GET', path: '/crash' },
    expect: {
      status: 500,
      headers: { 'content-type': JSON_TYPE },
      text: JSON.stringify({ error: { type: 'server_error', message: 'database is on fire' } }),
    },
  },
];

/** Faults on HEAD and OPTIONS: served through the same plan as any other method. */
export const HEAD_OPTIONS_FAULTS: readonly {
  readonly name: string;
  readonly plan: FaultPlan;
  readonly send: Sent;
  readonly expect: Received | { error: string };
  /** Virtual ms from the start until the client saw it. */
  readonly at: number;
}[] = [
  {
    name: 'HEAD under a 503 with the API’s own Retry-After and x-should-retry: the headers, no body',
    plan: [
      {
        match: { tool: 'head_note' },
        fault: {
          kind: 'unavailable',
          status: 503,
          headers: { 'Retry-After': '2', 'x-should-retry': 'true' },
          body: { errors: [{ code: 'down' }] },
        },
      },
    ],
    send: { method: 'HEAD', path: '/notes/n1' },
    expect: {
      status: 503,
      headers: { 'content-type': JSON_TYPE, 'retry-after': '2', 'x-should-retry': 'true' },
      text: '',
    },
    at: 0,
  },
  {
    name: 'OPTIONS under a rate limit: 429 with Retry-After and the JSON error body',
    plan: [
      {
        match: { tool: 'notes_options' },
        fault: { kind: 'rate_limit', retryAfter: 1, body: { errors: [{ code: 'slow_down' }] } },
      },
    ],
    send: { method: 'OPTIONS', path: '/notes' },
    expect: {
      status: 429,
      headers: { 'content-type': JSON_TYPE, 'retry-after': '1' },
      text: JSON.stringify({ errors: [{ code: 'slow_down' }] }),
    },
    at: 0,
  },
  {
    name: 'OPTIONS under a reset connection',
    plan: [{ match: { tool: 'notes_options' }, fault: { kind: 'network', code: 'ECONNRESET' } }],
    send: { method: 'OPTIONS', path: '/notes' },
    expect: { error: 'ECONNRESET' },
    at: 0,
  },
  {
    name: 'HEAD under a timeout: the client gives up at its own 10 s',
    plan: [{ match: { tool: 'head_note' }, fault: { kind: 'timeout' } }],
    send: { method: 'HEAD', path: '/notes/n1' },
    expect: { error: 'timeout' },
    at: 10_000,
  },
];

/** The history of one unfaulted exchange: delivered to `c.operation` once, answered with the case's status. */
export function expectRecorded(trial: NotesTrial, c: NotesCase): void {
  const wire = { tool: c.operation, method: c.send.method, url: `${NOTES}${c.send.path}`, request: 'http-1' };
  expect(trial.history.events.filter((e) => e.type === 'delivery' || e.type === 'response')).toEqual([
    expect.objectContaining({ type: 'delivery', ...wire }),
    expect.objectContaining({
      type: 'response',
      ...wire,
      result: c.expect.status < 400 ? 'ok' : 'error',
      status: c.expect.status,
    }),
  ]);
}

/** The user-API cases, the same under msw and nock; each adapter's file passes its own runner. */
export function describeUserApi(
  adapter: string,
  runUnder: <T>(trial: NotesTrial, body: () => Promise<T>) => Promise<ClockRun<T>>,
): void {
  describe(`${adapter} adapter: a user’s own API, every method, in its own shape`, () => {
    for (const c of NOTES_CASES) {
      describe(c.name, () => {
        it('node:http sees it', async () => {
          const trial = notesTrial();
          const run = await runUnder(trial, () => sendWithNodeHttp(c.send));
          expect(run.kind === 'settled' && run.value).toEqual(c.expect);
          if (c.input !== undefined) expect(trial.seen).toEqual([c.input]);
          expectRecorded(trial, c);
        });

        // undici's fetch refuses TRACE before sending anything (a forbidden method in the Fetch standard).
        if (c.send.method !== 'TRACE') {
          it('global fetch sees it', async () => {
            const trial = notesTrial();
            const run = await runUnder(trial, () => sendWithFetch(c.send));
            expect(run.kind === 'settled' && run.value).toEqual(c.expect);
          });
        }
      });
    }

    for (const c of HEAD_OPTIONS_FAULTS) {
      it(`faulted: ${c.name}`, async () => {
        for (const send of [sendWithNodeHttp, sendWithFetch]) {
          const trial = notesTrial(c.plan);
          const run = await runUnder(trial, () => send(c.send));
          expect(run).toEqual({ kind: 'settled', value: c.expect, at: trial.clock.now() });
          expect(trial.clock.now() - DEFAULT_TRIAL_START).toBe(c.at);
          expect(trial.history.events.slice(0, 2)).toMatchObject([
            { type: 'http_request', method: c.send.method, attempt: 1 },
            { type: 'fault', method: c.send.method, fault: c.plan[0]!.fault },
          ]);
        }
      });
    }
  });
}
