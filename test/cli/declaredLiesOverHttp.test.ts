/**
 * Lies drawn from a tool's declared `output` schema, over HTTP, through the built CLI: a user's
 * project outside the repo declares two services with `defineService` (one in its own REST
 * shape, one as the default RPC endpoints), an `http` agent reads them with fetch through msw.
 * `wrong_value` answers another member of the declared enum and `empty` the schema's empty value;
 * a route that reshapes the tool's result (`output` mapper) is lied to from its JSON shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const STATUSES = ['open', 'paid', 'shipped', 'cancelled'];

/** The output schema both services declare, and the answer every tool gives. */
const ORDER = `import { z } from 'faultline';

export const Order = z.object({
  status: z.enum(${JSON.stringify(STATUSES)}),
  items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })),
  note: z.string().nullable(),
});

export const order = () => ({ status: 'paid' as const, items: [{ sku: 'a', qty: 1 }], note: 'leave at the door' });
`;

// Its own REST shape: GET /orders/:orderId answers the tool's result; GET /orders/:orderId/badge reshapes it.
const SHOP = `import { defineService, z } from 'faultline';
import { Order, order } from './order.ts';

export default defineService({
  name: 'shop',
  state: {},
  http: {
    baseUrl: 'https://shop.test',
    routes: [
      { method: 'GET', path: '/orders/:orderId', tool: 'get_order' },
      { method: 'GET', path: '/orders/:orderId/badge', tool: 'get_order_badge', output: (r) => ({ badge: (r as { status: string }).status }) },
    ],
  },
  tools: {
    get_order: { description: 'One order.', risk: 'read', input: z.object({ orderId: z.string() }), output: Order, run: order },
    get_order_badge: { description: 'One order, as a badge.', risk: 'read', input: z.object({ orderId: z.string() }), output: Order, run: order },
  },
});
`;

// No http of its own: POST https://billing.faultline.test/tools/get_invoice.
const BILLING = `import { defineService, z } from 'faultline';
import { Order, order } from './order.ts';

export default defineService({
  name: 'billing',
  state: {},
  tools: {
    get_invoice: { description: 'One invoice.', risk: 'read', input: z.object({}).strict(), output: Order, run: order },
  },
});
`;

const AGENT = `import { defineHttpAgent } from 'faultline';

export default defineHttpAgent(async ({ services }) => {
  const shop = services['shop']!.baseUrl;
  const billing = services['billing']!.baseUrl;
  const read = async (url: string, init?: RequestInit): Promise<unknown> => (await fetch(url, init)).json();
  await read(shop + '/orders/ord-1');
  await read(shop + '/orders/ord-1/badge');
  await read(billing + '/tools/get_invoice', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { outcome: 'completed' };
});
`;

const scenario = (name: string, fault: string, badgePath: string): string => `name: ${name}
services: [./shop.service.ts, ./billing.service.ts]
http: { adapter: msw }
faults:
  - match: { tool: get_order }
    fault: ${fault}
  - match: { tool: get_invoice }
    fault: ${fault}
  - match: { tool: get_order_badge }
    fault: ${fault.replace('status', badgePath)}
agent:
  kind: http
  task: Read the order, its badge and the invoice.
  module: ./agent.ts
`;

interface Lie {
  readonly type: string;
  readonly tool?: string;
  readonly url?: string;
  readonly held?: unknown;
  readonly answered?: unknown;
}

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject(
    'declared-lies-http',
    {
      'order.ts': ORDER,
      'shop.service.ts': SHOP,
      'billing.service.ts': BILLING,
      'agent.ts': AGENT,
      'wrong.yaml': scenario('declared-wrong-value', '{ kind: wrong_value, path: status }', 'badge'),
      'empty.yaml': scenario('declared-empty', '{ kind: empty }', ''),
    },
    ['msw'],
  );
});
afterAll(async () => {
  await project.cleanup();
});

/** Set once a replay of this file has gone through the binary: `replay --json` has one end-to-end test here. */
let replayedOnBinary = false;

/** The lie events of the first `count` trials (as `faultline replay --json` prints each history), by tool. */
async function liesOf(file: string, count: number): Promise<Map<string, Lie>[]> {
  const trials: Map<string, Lie>[] = [];
  for (let trial = 0; trial < count; trial++) {
    // The file's first replay through the binary, the others in process (./inProcess.ts).
    const cli = replayedOnBinary ? inProcess : faultline;
    replayedOnBinary = true;
    const r = await cli(['replay', file, '--trial', String(trial), '--json'], { cwd: project.path });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const history = JSON.parse(r.stdout) as Lie[];
    trials.push(new Map(history.filter((e) => e.type === 'lie').map((e) => [e.tool!, e])));
  }
  return trials;
}

const HELD = { status: 'paid', items: [{ sku: 'a', qty: 1 }], note: 'leave at the door' };

describe('lies drawn from a declared output schema, over HTTP through the CLI', () => {
  it('wrong_value { path: status }: another member of the declared enum, on a REST route and an RPC endpoint', async () => {
    const trials = await liesOf('./wrong.yaml', 3);
    for (const lies of trials) {
      expect([...lies.keys()].sort()).toEqual(['get_invoice', 'get_order', 'get_order_badge']);
      for (const tool of ['get_order', 'get_invoice']) {
        const lie = lies.get(tool)!;
        expect(lie.held).toEqual(HELD);
        const answered = lie.answered as typeof HELD;
        expect(STATUSES).toContain(answered.status);
        expect(answered.status).not.toBe('paid');
        expect({ ...answered, status: 'paid' }).toEqual(HELD);
      }
      expect(lies.get('get_order')?.url).toBe('https://shop.test/orders/ord-1');
      expect(lies.get('get_invoice')?.url).toBe('https://billing.faultline.test/tools/get_invoice');
      // The badge route reshapes the result: the tool's schema does not describe its body, so the lie is any other string.
      const badge = lies.get('get_order_badge')!;
      expect(badge.held).toEqual({ badge: 'paid' });
      expect(typeof (badge.answered as { badge: unknown }).badge).toBe('string');
      expect(STATUSES).not.toContain((badge.answered as { badge: unknown }).badge);
    }
  });

  it("empty: the schema's empty value (the list emptied, the nullable field null, the enum kept)", async () => {
    const trials = await liesOf('./empty.yaml', 1);
    for (const lies of trials) {
      expect(lies.get('get_order')?.answered).toEqual({ status: 'paid', items: [], note: null });
      expect(lies.get('get_invoice')?.answered).toEqual({ status: 'paid', items: [], note: null });
      // From the badge's JSON shape: one record, so null.
      expect(lies.get('get_order_badge')?.answered).toBeNull();
    }
  });
});
