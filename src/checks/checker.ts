import type { Verdict } from '../core/index.js';
import type { Expectations, TrialRecord } from './record.js';

/** A checker judges one trial from its history and final snapshot, whatever runtime produced them. */
export interface Checker {
  readonly name: string;
  /** The rulebook rules it checks (`R7`, `R23`…). */
  readonly rules: readonly string[];
  readonly description: string;
  check(record: TrialRecord, expect: Expectations): Verdict;
}
