export type { Message, Model, ModelAction, ModelActionKind, ModelInput, ProposedCall } from './model.js';
export { runAgentLoop, type AgentLoopOptions, type LoopEnd, type LoopEndKind } from './loop.js';
export { BEHAVIOURS, type Behaviour } from './behaviours.js';
export { ScriptedModel, type ScriptedModelOptions } from './ScriptedModel.js';
export { playScript, type FinalAction, type Reply, type Script } from './playScript.js';
export { PollSchema, ScriptPlanSchema, StepSchema, type Poll, type ScriptPlan, type ScriptPlanInput, type Step } from './script.js';
export { parsePlaceholder, placeholdersIn, readPath, substitutePlaceholders, type PathLookup, type Placeholder } from './placeholders.js';
export { readOperationAnswer, type OperationAnswer, type OperationAnswerState } from './operationStatus.js';
export {
  defineAgent,
  runAgentFunction,
  type AgentContext,
  type AgentFn,
  type AgentFnResult,
  type AgentFunctionOptions,
} from './agentFunction.js';
export { AGENT_PLACEHOLDER, planForAgent, withAgentIndex } from './agentIndex.js';
