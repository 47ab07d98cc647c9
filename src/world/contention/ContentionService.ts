import type { Service } from '../Service.js';
import type { AdmissionStats } from './AdmissionControl.js';

/** A service many clients contend for: one tool, and the input each client's operation sends. */
export interface ContentionService extends Service {
  /** The tool every client calls. */
  readonly tool: string;
  /** The input of operation `op` (0-based) of client `agent` (0-based): unique per operation. */
  inputFor(agent: number, op: number): unknown;
  /** The business key the ledger files the operation's effect under, to find its duplicates. */
  keyFor(agent: number, op: number): string;
  readonly admission: AdmissionStats;
}
