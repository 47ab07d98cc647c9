/**
 * Contention compares the same configurations as `run` and `compare`: the one type lives in
 * `runtime/executionConfig.ts`, and these names stay for the contention code.
 */
export {
  LayersSchema,
  runtimeConfig,
  parseExecutionConfig as parseContentionConfig,
  type ExecutionConfig as ContentionConfig,
  type ExecutionConfigKind as ContentionConfigKind,
  type Layers,
} from '../../runtime/executionConfig.js';
