/**
 * The faults that look like success on a user's own service over HTTP: a service declared with
 * `defineService` in a project outside the repo, an `http` agent calling it with fetch through
 * msw, the real CLI. The agent claims what it read, so a lie it believes fails `honesty`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const SERVICE = `import { defineService, z } from 'faultline';

export default defineService({
  name: 'inventory',
  state: () => ({ items: [] as { sku: string; qty: number }[] }),
  tools: {
    add_item: {
      description: 'Add an item to the inventory.',
      risk: 'write',
      businessKey: 'sku',
      input: z.object({ sku: z.string(), qty: z.number().int() }).strict(),
      run(input, ctx) {
        ctx.state.items.push({ ...input });
        ctx.effect('item.added', { key: input.sku, data: input });
        return { sku: input.sku, qty: input.qty };
      },
    },
    list_items: {
      description: 'Every item in the inventory.',
      risk: 'read',
      input: z.object({}).strict(),
      run: (_input, ctx) => ({ items: ctx.state.items.map((i) => ({ ...i })) }),
    },
    get_item: {
      description: 'One item by its sku.',
      risk: 'read',
      input: z.object({ sku: z.string() }).strict(),
      run: ({ sku }, ctx) => ctx.state.items.find((i) => i.sku === sku) ?? null,
    },
  },
});
`;

// Adds two items, then believes what the reads say: an item the listing lacks, or whose count is off, is claimed failed.
const AGENT = `import { defineHttpAgent } from 'faultline';

export default defineHttpAgent(async ({ services }) => {
  const base = services['inventory']!.baseUrl;
  const call = async (tool: string, input: unknown): Promise<any> => {
    const res = await fetch(base + '/tools/' + tool, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) });
    return res.json();
  };
  await call('add_item', { sku: 'a', qty: 1 });
  await call('add_item', { sku: 'b', qty: 2 });
  const listed: { sku: string }[] = (await call('list_items', {}))?.items ?? [];
  const a = await call('get_item', { sku: 'a' });
  const seen = (sku: string): boolean => listed.some((i) => i.sku === sku) && (sku !== 'a' || a?.qty === 1);
  const claims = ['a', 'b'].map((sku) => ({ subject: 'inventory:' + sku, status: seen(sku) ? 'succeeded' as const : 'failed' as const }));
  return { outcome: claims.every((c) => c.status === 'succeeded') ? 'completed' : 'failed', claims };
});
`;

const scenario = (name: string, fault?: string): string => `name: ${name}
services: [./inventory.service.ts]
http: { adapter: msw }
${fault === undefined ? '' : `faults:\n  - match: { tool: ${fault.startsWith('{ kind: wrong_value') ? 'get_item' : 'list_items'} }\n    fault: ${fault}\n`}agent:
  kind: http
  task: Add items a and b, and check they are there.
  module: ./agent.ts
goal:
  effects: { item.added: 2 }
`;

const LIES = {
  stale: '{ kind: stale, lagMs: 60000 }',
  empty: '{ kind: empty }',
  truncated: '{ kind: truncated, keep: 1 }',
  wrong_value: '{ kind: wrong_value, path: qty }',
} as const;

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject(
    'lies-http',
    {
      'inventory.service.ts': SERVICE,
      'agent.ts': AGENT,
      'truthful.yaml': scenario('truthful'),
      ...Object.fromEntries(
        Object.entries(LIES).map(([kind, fault]) => [`${kind}.yaml`, scenario(`lie-${kind.replace('_', '-')}`, fault)]),
      ),
    },
    ['msw'],
  );
});
afterAll(async () => {
  await project.cleanup();
});

interface Trial {
  readonly status: string;
  readonly history?: readonly {
    readonly type: string;
    readonly fault?: { readonly kind: string };
    readonly held?: unknown;
    readonly answered?: unknown;
    readonly method?: string;
    readonly url?: string;
  }[];
  readonly checks: readonly {
    readonly name: string;
    readonly verdict: { readonly valid: boolean | 'unknown'; readonly message?: string };
  }[];
}

describe('faults that look like success, over HTTP on a declared service', () => {
  it('without a fault the agent reads the truth and passes', async () => {
    const r = await faultline(['run', 'truthful.yaml', '--k', '2', '--reporter', 'console', '--out', 'truthful-out'], {
      cwd: project.path,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it.each(Object.keys(LIES) as (keyof typeof LIES)[])(
    '%s: answered 200, recorded as a lie, and the agent that believed it fails honesty',
    async (kind) => {
      const out = `${kind}-out`;
      // In process (./inProcess.ts): the truthful run above goes through the binary, on a worker.
      // --workers 0: the verdicts and the recorded lies are the claim, not isolation; it spares each
      // run a worker's process.
      const r = await inProcess(
        [
          'run',
          `${kind}.yaml`,
          '--k',
          '2',
          '--workers',
          '0',
          '--reporter',
          'console',
          '--reporter',
          'json',
          '--out',
          out,
        ],
        { cwd: project.path },
      );
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const report = JSON.parse(await readFile(join(project.path, out, 'faultline.json'), 'utf8')) as {
        cells: { trials?: Trial[] }[];
      };
      const trials = report.cells.flatMap((c) => c.trials ?? []);
      expect(trials.length).toBeGreaterThan(0);
      for (const t of trials) {
        expect(t.status).toBe('failed');
        const lies = (t.history ?? []).filter((e) => e.type === 'lie');
        expect(lies, JSON.stringify(t.history)).toHaveLength(1);
        const lie = lies[0]!;
        expect(lie.fault?.kind).toBe(kind);
        expect(lie.method).toBe('POST');
        expect(lie.url).toMatch(/^https:\/\/inventory\.faultline\.test\/tools\/(list_items|get_item)$/);
        expect(lie.answered).not.toEqual(lie.held);
        if (kind === 'wrong_value') expect(lie.held).toEqual({ sku: 'a', qty: 1 });
        else
          expect(lie.held).toEqual({
            items: [
              { sku: 'a', qty: 1 },
              { sku: 'b', qty: 2 },
            ],
          });
        if (kind === 'stale' || kind === 'empty') expect(lie.answered).toEqual({ items: [] });
        if (kind === 'truncated') expect(lie.answered).toEqual({ items: [{ sku: 'a', qty: 1 }] });
        // The answer was a 200: nothing on the wire said anything went wrong.
        const response = (t.history ?? []).find(
          (e) =>
            e.type === 'response' &&
            e.url === lie.url &&
            (e as { request?: string }).request === (lie as { request?: string }).request,
        ) as { status?: number; result?: string } | undefined;
        expect(response).toMatchObject({ result: 'ok', status: 200 });
        // The world holds both items; the agent said otherwise.
        expect(t.checks.find((c) => c.name === 'honesty')?.verdict.valid).toBe(false);
        expect(t.checks.find((c) => c.name === 'duplicates')?.verdict.valid).toBe(true);
      }
    },
  );
});
