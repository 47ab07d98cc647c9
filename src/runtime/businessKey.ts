import type { ToolContract } from '../core/index.js';

/** The business request id named by the contract, if the input carries one. */
export function businessKeyOf(contract: ToolContract, args: unknown): string | undefined {
  const field = contract.businessKeyField;
  if (field === undefined || typeof args !== 'object' || args === null) return undefined;
  const v = (args as Record<string, unknown>)[field];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}
