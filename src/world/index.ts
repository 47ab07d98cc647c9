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
export {
  DeployConfigSchema,
  PaymentsConfigSchema,
  ServiceConfigSchema,
  WorldConfigSchema,
  type DeployConfig,
  type PaymentsConfig,
  type ServiceConfig,
  type WorldConfig,
} from './WorldConfig.js';
export { BUILTIN_SERVICES, createWorld, type BuiltinServiceName } from './createWorld.js';
export type { ServiceOptions } from './services/ServiceOptions.js';
export * from './services/orders.js';
export * from './services/payments.js';
export * from './services/email.js';
export * from './services/calendar.js';
export * from './services/deploy.js';
export { deliver, findTool, queryStatus, toolContext, type DeliveryIds } from './deliver.js';
