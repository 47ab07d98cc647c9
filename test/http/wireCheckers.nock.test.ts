import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { eventsOf } from '../../src/core/index.js';
import { runWithNock } from '../../src/faults/http/nock.js';
import type { FaultPlan } from '../../src/faults/plan.js';
import { ORDER, SHOP } from './support.js';
import {
  arrivals,
  fixed,
  honourRetryAfter,
  judge,
  noKey,
  oneKey,
  orderTool,
  rulesOf,
  shop,
  verdictOf,
  type Send,
  type ToolHabits,
} from './wireTools.js';

/** POST /orders with node:https, as older tools and many SDKs do. */
const sendWithNodeHttps: Send = ({ key }) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(ORDER);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    };
    const req = https.request(`${SHOP}/orders`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          body: text,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });

async function trialOf(plan: FaultPlan, habits: ToolHabits) {
  const trial = shop(plan);
  const run = await runWithNock(trial.faults, trial.clock, () => orderTool(sendWithNodeHttps, habits));
  if (run.kind !== 'settled') throw new Error(`the tool did not settle: ${run.kind}`);
  return { trial, outcome: run.value };
}

const rateLimitFirst: FaultPlan = [
  { match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'rate_limit', retryAfter: 7 } },
];

describe('checkers judge a node:http tool from its traffic alone (nock)', () => {
  it('a resend before Retry-After elapsed is R9, naming the request and the header', async () => {
    const { trial, outcome } = await trialOf(rateLimitFirst, { key: oneKey, waitMs: fixed(400), maxAttempts: 3 });
    expect(outcome).toBe('created after 2 tries');
    const results = judge(trial);
    expect(rulesOf(results, 'retry-discipline')).toEqual(['R9']);
    expect(verdictOf(results, 'retry-discipline')).toMatchObject({
      message:
        'create_order create_order#1 attempt 2 (http-2, POST https://api.shop.test/orders) at t=400ms was sent 400ms after the 429 answer to http-1 at t=0ms said Retry-After: 7 (7000ms, until t=7000ms) (R9)',
    });
  });

  it('honoured, with one key: every checker passes', async () => {
    const { trial } = await trialOf(rateLimitFirst, { key: oneKey, waitMs: honourRetryAfter, maxAttempts: 3 });
    expect(judge(trial).filter((r) => r.verdict.valid !== true)).toEqual([]);
  });

  it('`match: { attempt: 1 }` faults only the first try of a keyless client', async () => {
    const { trial, outcome } = await trialOf(
      [{ match: { tool: 'create_order', attempt: 1 }, fault: { kind: 'unavailable', status: 503 } }],
      { key: noKey, waitMs: fixed(1000), maxAttempts: 3 },
    );
    expect(outcome).toBe('created after 2 tries');
    expect(arrivals(trial.history.events)).toEqual(['create_order#1/1 http-1 new', 'create_order#1/2 http-2 repeat']);
    expect(eventsOf(trial.history.events, 'fault')).toHaveLength(1);
    expect(rulesOf(judge(trial), 'retry-discipline')).toEqual(['R7']);
  });
});
