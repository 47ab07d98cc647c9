import { z } from 'zod';
import type { ToolContract, Transport, WireRequest } from '../core/index.js';

/** Test double for the wire: records every request and answers through `reply`. */
export class FakeTransport implements Transport {
  readonly sent: WireRequest[] = [];

  constructor(
    readonly tools: readonly ToolContract[],
    private readonly reply: (request: WireRequest, signal?: AbortSignal) => unknown,
  ) {}

  async send(request: WireRequest, signal?: AbortSignal): Promise<unknown> {
    this.sent.push(request);
    return await this.reply(request, signal);
  }

  calls(purpose: WireRequest['purpose'] = 'call'): WireRequest[] {
    return this.sent.filter((r) => r.purpose === purpose);
  }
}

/** Attempt `attempt` of call-1 to tool `t`, a plain call with no input. */
export const callRequest = (attempt: number): WireRequest => ({
  request: `req-${attempt}`,
  tool: 't',
  purpose: 'call',
  input: {},
  call: 'call-1',
  attempt,
});

/** A request that is never answered: it rejects only when the caller aborts it. */
export function hang(signal?: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
  );
}

/** Answers attempt n of each call with `steps[n - 1]` (the last step repeats); a step that is an Error is thrown. */
export function script(steps: readonly unknown[]): (request: WireRequest, signal?: AbortSignal) => unknown {
  return (request, signal) => {
    const step = steps[Math.min(request.attempt, steps.length) - 1];
    if (step === HANG) return hang(signal);
    if (step instanceof Error) throw step;
    return step;
  };
}
export const HANG = Symbol('hang');

const contract = (c: Partial<ToolContract> & Pick<ToolContract, 'name' | 'risk'>): ToolContract => ({
  description: c.name,
  input: z.object({}).passthrough(),
  honoursIdempotencyKeys: false,
  canQueryStatus: false,
  ...c,
});

export const searchTool = contract({ name: 'search', risk: 'read', input: z.object({ q: z.string() }).strict() });
export const lookupTool = contract({ name: 'lookup', risk: 'read', input: z.object({ id: z.string() }).strict() });
export const createOrderTool = contract({
  name: 'create_order',
  risk: 'write',
  input: z.object({ ref: z.string(), sku: z.string(), qty: z.number().int().positive() }).strict(),
  honoursIdempotencyKeys: true,
  canQueryStatus: true,
  businessKeyField: 'ref',
});
export const sendEmailTool = contract({
  name: 'send_email',
  risk: 'write',
  input: z.object({ to: z.string(), body: z.string() }).strict(),
});
export const setFlagTool = contract({
  name: 'set_flag',
  risk: 'idempotent-write',
  input: z.object({ on: z.boolean() }).strict(),
});
export const ALL_TOOLS = [searchTool, lookupTool, createOrderTool, sendEmailTool, setFlagTool];
