import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { expect } from 'vitest';
import { History, Rng, VirtualClock } from '../../src/core/index.js';
import { HttpFaults, type HttpService } from '../../src/faults/http/HttpFaults.js';
import { ordersRoutes } from '../../src/faults/http/toolRoutes.js';
import type { Fault } from '../../src/faults/fault.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { createWorld } from '../../src/world/createWorld.js';
import type { World } from '../../src/world/World.js';

export const START = Date.parse('2025-01-01T00:00:00Z');
export const SHOP = 'https://api.shop.test';
export const ORDER = { clientReference: 'ref-1', item: 'book', quantity: 1, amountCents: 1200 };

export interface HttpTrial {
  readonly clock: VirtualClock;
  readonly history: History;
  readonly world: World;
  readonly faults: HttpFaults;
}

/** A fresh trial: the orders service as a REST API at `baseUrl` (default SHOP), under `plan`. */
export function shopTrial(plan: FaultPlan, extra: readonly HttpService[] = [], baseUrl = SHOP): HttpTrial {
  const clock = new VirtualClock(START);
  const history = new History(clock);
  const world = createWorld(clock, {}, ['orders']);
  const faults = new HttpFaults({
    services: [{ baseUrl, routes: ordersRoutes(world) }, ...extra],
    plan,
    clock,
    rng: new Rng(7).fork('http'),
    history,
    world,
  });
  return { clock, history, world, faults };
}

export const always = (fault: Fault): FaultPlan => [{ match: {}, fault }];

/** What a client saw, in a form both clients share: an answer, or an error. */
export type Seen =
  | {
      readonly status: number;
      readonly statusText: string;
      readonly headers: Record<string, string>;
      readonly body: unknown;
      readonly at: number;
    }
  | { readonly error: Record<string, unknown>; readonly at: number };

const pick = (headers: Record<string, unknown>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'retry-after']) {
    const v = headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return out;
};

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { unparseable: text };
  }
};

/** POST /orders with global fetch and a 30 s `AbortSignal.timeout`, as a tool would. */
export async function postWithFetch(clock: VirtualClock, key?: string): Promise<Seen> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(key === undefined ? {} : { 'idempotency-key': key }),
  };
  try {
    const res = await fetch(`${SHOP}/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify(ORDER),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return {
      status: res.status,
      statusText: res.statusText,
      headers: pick(Object.fromEntries(res.headers)),
      body: parsed(text),
      at: clock.now() - START,
    };
  } catch (e) {
    const err = e as Error & { code?: unknown; cause?: Error & { code?: unknown } };
    const cause = err.cause
      ? { cause: { name: err.cause.name, message: err.cause.message, code: err.cause.code } }
      : {};
    return { error: { name: err.name, message: err.message, code: err.code, ...cause }, at: clock.now() - START };
  }
}

/** POST /orders with axios (node:http) and a 30 s timeout; every status is an answer. */
export async function postWithAxios(clock: VirtualClock, key?: string): Promise<Seen> {
  try {
    const res = await axios.post(`${SHOP}/orders`, ORDER, {
      headers: key === undefined ? {} : { 'idempotency-key': key },
      timeout: 30_000,
      validateStatus: () => true,
      // The raw text, so a truncated body is seen as sent.
      transformResponse: (data: unknown) => data,
    });
    return {
      status: res.status,
      statusText: res.statusText,
      headers: pick(res.headers as Record<string, unknown>),
      body: parsed(String(res.data)),
      at: clock.now() - START,
    };
  } catch (e) {
    const err = e as Error & { code?: unknown; cause?: Error & { code?: unknown } };
    return {
      error: { name: err.name, message: err.message, code: err.code, causeCode: err.cause?.code },
      at: clock.now() - START,
    };
  }
}

/** A real HTTP server on 127.0.0.1: the "real network" a request reaches once nothing intercepts it. */
export async function localServer(): Promise<{
  readonly url: string;
  readonly hits: string[];
  close(): Promise<void>;
}> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ real: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The response events of a history, reduced to what went over the wire. */
export function responses(
  history: History,
): { t: number; method?: string; url?: string; status?: number; result: string; idempotencyKey?: string }[] {
  return history.events.flatMap((e) =>
    e.type === 'response'
      ? [
          {
            t: e.t,
            result: e.result,
            ...(e.method === undefined ? {} : { method: e.method }),
            ...(e.url === undefined ? {} : { url: e.url }),
            ...(e.status === undefined ? {} : { status: e.status }),
            ...(e.idempotencyKey === undefined ? {} : { idempotencyKey: e.idempotencyKey }),
          },
        ]
      : [],
  );
}

/**
 * The wire events of one POST to /orders delivered twice (`duplicate, copies: 2`) with
 * Idempotency-Key `key-9`: what both adapters must record.
 */
export function expectDuplicateWireEvents(history: History): void {
  const wire = {
    method: 'POST',
    url: `${SHOP}/orders`,
    idempotencyKey: 'key-9',
    request: 'http-1',
    call: 'create_order#1',
    attempt: 1,
  };
  expect(history.events.map((e) => e.type)).toEqual([
    'http_request',
    'fault',
    'delivery',
    'effect',
    'delivery',
    'response',
  ]);
  expect(history.events[0]).toMatchObject({
    ...wire,
    tool: 'create_order',
    kind: 'tool',
    purpose: 'call',
    callNumber: 1,
    groupedBy: 'new',
    risk: 'write',
    honoursKeys: true,
    bodyDigest: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
  });
  expect(history.events[1]).toMatchObject({
    ...wire,
    tool: 'create_order',
    rule: 0,
    fault: { kind: 'duplicate', copies: 2 },
  });
  expect(history.events[2]).toMatchObject({ ...wire, tool: 'create_order', copy: 0 });
  expect(history.events[3]).toMatchObject({ ...wire, service: 'orders', effect: 'order.created', key: 'ref-1' });
  expect(history.events[4]).toMatchObject({ ...wire, copy: 1 });
  expect(history.events[5]).toMatchObject({ ...wire, result: 'ok', status: 201 });
}
