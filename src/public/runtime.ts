/**
 * `faultline/runtime`: the execution layer agents' tool calls go through under test — the
 * `Executor` (retries, idempotency keys, reconciliation, budgets) and its configurations: the
 * retry schema, execution-config files (`scenarios/configs/*.yaml`) and their parsing.
 * `rulebookDefault`, the reference configuration, is on the main entry.
 *
 * @example
 * import { parseExecutionConfig } from 'faultline/runtime';
 * const careful = parseExecutionConfig({ name: 'careful', maxAttempts: 4 }, 'careful.yaml');
 */
export { Executor } from '../runtime/Executor.js';
export { RetryConfigSchema } from '../runtime/config.js';
export {
  ExecutionConfigFileSchema,
  LayersSchema,
  parseExecutionConfig,
  runtimeConfig,
} from '../runtime/executionConfig.js';

export type { ExecutionConfig, ExecutionConfigKind, ExecutionConfigLike, Layers } from '../runtime/executionConfig.js';
export type { ExecutorOptions } from '../runtime/Executor.js';
export type { ToolExecutor, CallOptions } from '../runtime/ToolExecutor.js';
