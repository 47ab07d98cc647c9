import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export type Id = string | number;
export type Request = { jsonrpc: '2.0'; id: Id; method: string; params?: Record<string, unknown> };
export type Response = {
  jsonrpc: '2.0';
  id: Id;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

export const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & Request => 'method' in m && 'id' in m;
export const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & Response => !('method' in m) && 'id' in m;

/** The request a `notifications/cancelled` names, if `message` is one. */
export function cancelledId(message: JSONRPCMessage): Id | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled') return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
