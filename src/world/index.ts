export { World } from './World.js';
export { EffectLedger, type Effect, type NewEffect } from './ledger.js';
export type { WorldSnapshot } from './snapshot.js';
export type { Service } from './Service.js';
export type { ToolContext, ToolSpec, ToolWorld } from './tool.js';
export {
  DEFAULT_RETENTION_MS,
  IdempotencyTable,
  requestFingerprint,
  type IdempotencyConfig,
  type IdempotencyRecord,
  type IdempotencyRecordState,
  type StoredResult,
  type StoredResultKind,
} from './idempotency.js';
export { WorldConfigSchema, type WorldConfig } from './WorldConfig.js';
export {
  BUILTIN_SERVICE_DEFINITIONS,
  BUILTIN_SERVICES,
  NAMED_SERVICES,
  OPT_IN_SERVICES,
  createWorld,
  defaultServices,
  isBuiltinService,
  resolveServices,
  type BuiltinServiceName,
  type ServiceRef,
} from './createWorld.js';
export {
  defineService,
  isServiceDefinition,
  type ServiceDefinition,
  type ServiceDefinitionInput,
  type ToolSummary,
} from './define/defineService.js';
export { CommonServiceOptionsSchema, type CommonServiceOptions } from './define/serviceOptions.js';
export type { ServiceContext, ToolDefinition } from './define/ToolDefinition.js';
export { ServiceError, type ServiceErrorInit } from './define/ServiceError.js';
export {
  SERVICE_HTTP_METHODS,
  type ServiceHttp,
  type ServiceHttpError,
  type ServiceHttpMethod,
  type ServiceRoute,
  type ServiceRouteRequest,
} from './define/ServiceHttp.js';
export type { ServiceOptions } from './services/ServiceOptions.js';
export * from './services/orders.js';
export * from './services/payments.js';
export * from './services/email.js';
export * from './services/calendar.js';
export * from './services/deploy.js';
export * from './services/records.js';
export * from './services/jobs.js';
export {
  AdmissionControl,
  type Admission,
  type AdmissionKind,
  type AdmissionStats,
} from './capacity/AdmissionControl.js';
export { CapacitySchema, type CapacityConfig, type CapacityConfigInput } from './capacity/CapacityConfig.js';
export { RateLimiter, type RateDecision, type RateDecisionKind } from './capacity/RateLimiter.js';
export { tasks, TASK_STATES, type TaskState } from './services/tasks.js';
export { groupAlive, ProcessTable, signalGroup, type StartedGroup } from './command/ProcessTable.js';
export {
  runCommand,
  type CommandResult,
  type CommandResultKind,
  type CommandSpec,
  type RunCommandOptions,
} from './command/runCommand.js';
export { deliver, findTool, queryStatus, toolContext, type DeliveryIds } from './deliver.js';
