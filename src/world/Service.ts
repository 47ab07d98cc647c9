import type { ToolSpec } from './tool.js';

/** A stateful mock service. It commits effects to the world's ledger and exposes tools. */
export interface Service {
  readonly name: string;
  readonly tools: readonly ToolSpec[];
  /** Its state as plain data keyed by business key. */
  snapshot(): unknown;
}
