import type { FaultRule } from './plan.js';

// Apart from plan.ts so that coverage (and through it the gates every CLI command parses) can
// read a rule without loading zod, which the plan's schemas need.
/** Whether a cell whose trials never fired `rule` is not exercised (see `FaultRule.expect`). */
export const mustFire = (rule: FaultRule): boolean => rule.expect !== 'may-not-fire';
