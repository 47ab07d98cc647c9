import type { CallResultKind, HistoryEvent } from '../../core/index.js';
import type { FaultKind } from '../fault.js';

/** What the MCP client was shown for one `tools/call` (R16: a tool error is not a protocol error). */
export type ClientSaw = 'result' | 'tool_error' | 'protocol_error' | 'nothing';

/** One `tools/call` through the proxy, as the report lists it. */
export interface ProxiedCall {
  readonly call: string;
  readonly tool: string;
  readonly fault?: { readonly rule: number; readonly kind: FaultKind };
  /** How many times the server received it (0: refused or dropped before the server). */
  readonly deliveries: number;
  /** `unknown`: the server may have acted, and the client cannot know (a lost answer, R18). */
  readonly outcome: CallResultKind;
  readonly clientSaw: ClientSaw;
}

export interface McpProxyRecord {
  readonly calls: readonly ProxiedCall[];
  readonly history: readonly HistoryEvent[];
}
