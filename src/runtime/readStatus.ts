import { z } from 'zod';
import type { OperationStatus } from '../core/index.js';

const OperationStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('succeeded'), value: z.unknown() }),
  z.object({ state: z.literal('failed'), status: z.number(), message: z.string() }),
  z.object({ state: z.literal('pending') }),
  z.object({ state: z.literal('not_found') }),
]);

/** A status answer off the wire, checked: anything else is not an answer (and so proves nothing). */
export function readStatus(value: unknown): OperationStatus | undefined {
  const parsed = OperationStatusSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const s = parsed.data;
  return s.state === 'succeeded' ? { state: 'succeeded', value: s.value } : s;
}
