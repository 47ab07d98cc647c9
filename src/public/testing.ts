/**
 * `faultline/testing`: the parts a trial is built from, for tests and tools of your own —
 * the world (services, effect ledger), the built-in service definitions and the task
 * manager, local commands (`runCommand`, `ProcessTable`), the scripted model, the seeded
 * latency sampler, the schemas scenarios and services are validated with, and the folders
 * of the built-in library.
 *
 * @example
 * import { createWorld, BUILTIN_SERVICES } from 'faultline/testing';
 * const world = createWorld(clock, {}, BUILTIN_SERVICES);
 */
export {
  isServiceDefinition,
  CommonServiceOptionsSchema,
  BUILTIN_SERVICES,
  BUILTIN_SERVICE_DEFINITIONS,
  createWorld,
  World,
  EffectLedger,
  SERVICE_HTTP_METHODS,
  runCommand,
  ProcessTable,
  tasks,
  TASK_STATES,
} from '../world/index.js';
export { memoryBackend } from '../runner/backend.js';
export { loadServiceModule } from '../scenario/loadService.js';
export { ScenarioDataSchema, ScenarioSchema } from '../scenario/scenario.js';
export { LIBRARY_DIR, CONFIG_DIR, DEFAULT_CONFIG } from '../scenario/library.js';
export { DistributionSchema, sample } from '../core/distribution.js';
export { NetworkSchema, LegLatencySchema } from '../faults/network.js';
export { FaultPlanSchema } from '../faults/plan.js';
export { ScriptedModel } from '../model/ScriptedModel.js';

export type {
  BuiltinServiceName,
  CommandResult,
  CommandResultKind,
  CommandSpec,
  RunCommandOptions,
  Effect,
  NewEffect,
  Service,
  ToolContext,
  ToolSpec,
  WorldConfig,
  WorldSnapshot,
} from '../world/index.js';
export type { TrialBackend } from '../runner/backend.js';
export type { NetworkLeg } from '../core/transport.js';
export type { NetworkLegs } from '../core/events.js';
export type { ScriptedModelOptions } from '../model/ScriptedModel.js';
export type { Model, ModelAction, ModelInput, Message, ProposedCall } from '../model/model.js';
export type { Behaviour, BehaviourMix, BehaviourSpec } from '../model/behaviours.js';
