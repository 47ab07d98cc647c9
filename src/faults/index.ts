export { FAULT_KINDS, FaultSchema, type Fault, type FaultKind, type FaultOf } from './fault.js';
export {
  FaultMatchSchema,
  FaultPlanSchema,
  FaultRuleSchema,
  HealSchema,
  type FaultMatch,
  type Heal,
  type FaultPlan,
  type FaultRule,
} from './plan.js';
export { mustFire } from './mustFire.js';
export { matchesFields, matchesRule, pickRule, type RequestFacts } from './match.js';
export { ruleLabel } from './ruleLabel.js';
export {
  faultError,
  isFaultError,
  lostAnswerError,
  malformedError,
  serverError,
  type AnswerFields,
  type AnsweringFault,
  type RefusalFault,
} from './faultError.js';
export { Wire, type WireOptions } from './Wire.js';
export type { ReplyKind } from './reply.js';
export { ClientRetries, type ClientRetriesOptions } from './ClientRetries.js';
