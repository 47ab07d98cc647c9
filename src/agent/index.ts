export type { Message, Model, ModelAction, ModelActionKind, ModelInput, ProposedCall } from '../model/model.js';
export { runAgentLoop, type AgentLoopOptions, type LoopEnd, type LoopEndKind } from './loop.js';
export { BEHAVIOURS, type Behaviour } from '../model/behaviours.js';
export { ScriptedModel, type ScriptedModelOptions } from '../model/ScriptedModel.js';
export { playScript, type FinalAction, type Reply, type Script } from '../model/playScript.js';
export {
  PollSchema,
  ScriptPlanSchema,
  StepSchema,
  type Poll,
  type ScriptPlan,
  type ScriptPlanInput,
  type Step,
} from '../model/script.js';
export {
  parsePlaceholder,
  placeholdersIn,
  readPath,
  substitutePlaceholders,
  type PathLookup,
  type Placeholder,
} from '../model/placeholders.js';
export { readOperationAnswer, type OperationAnswer, type OperationAnswerState } from '../runtime/operationStatus.js';
export {
  defineAgent,
  runAgentFunction,
  type AgentContext,
  type AgentFn,
  type AgentFnResult,
  type AgentFunctionOptions,
} from './agentFunction.js';
export { AGENT_PLACEHOLDER, planForAgent, withAgentIndex } from './agentIndex.js';
