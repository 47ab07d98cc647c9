import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../core/index.js';
import { formatIssues } from '../core/zodIssues.js';
import { CockatielConfigSchema, type CockatielConfig } from './adapters/cockatiel.js';
import { PRetryConfigSchema, type PRetryConfig } from './adapters/pRetry.js';
import { RetryConfigSchema, type RetryConfig } from './config.js';

/**
 * Retry layers stacked around the configuration under test (R10): the tool's SDK retrying
 * below it, unseen, and the agent re-sending a call that failed. 3 × 3 × 3 attempts reach
 * the service up to 27 times per logical call.
 */
export const LayersSchema = z
  .object({
    /** Retries the tool's SDK makes below the execution layer (as the OpenAI and Anthropic SDKs do). */
    sdkRetries: z.number().int().nonnegative().default(0),
    /** Times the agent re-sends a call that came back as an error. */
    agentRepeats: z.number().int().nonnegative().default(0),
  })
  .strict();
export type Layers = z.infer<typeof LayersSchema>;

export const NO_LAYERS: Layers = { sdkRetries: 0, agentRepeats: 0 };

/**
 * The execution layer a trial runs under, as data: faultline's reference runtime with a
 * `RetryConfig`, or a third-party retry library, each with optional extra retry layers.
 * The one configuration type of `run`, `compare`, `replay`, `explore` and `sweep`, for one agent or a crowd.
 */
export type ExecutionConfig =
  | {
      readonly kind: 'runtime';
      readonly name: string;
      readonly description: string;
      readonly retry: RetryConfig;
      readonly layers: Layers;
    }
  | {
      readonly kind: 'cockatiel';
      readonly name: string;
      readonly description: string;
      readonly library: CockatielConfig;
      readonly layers: Layers;
    }
  | {
      readonly kind: 'p-retry';
      readonly name: string;
      readonly description: string;
      readonly library: PRetryConfig;
      readonly layers: Layers;
    };
export type ExecutionConfigKind = ExecutionConfig['kind'];

export const EXECUTION_CONFIG_KINDS: readonly ExecutionConfigKind[] = ['runtime', 'cockatiel', 'p-retry'];

/** A plain `RetryConfig` is the reference runtime's configuration with no extra layers: code may pass either. */
export type ExecutionConfigLike = ExecutionConfig | RetryConfig;

/**
 * The file format as one schema, for `faultline schema --config-schema` (editors complete and
 * check files with it). Files are read by `parseExecutionConfig`, whose messages name the
 * branch `kind` picks rather than every branch of a union.
 */
export const ExecutionConfigFileSchema = z.union([
  RetryConfigSchema.extend({ kind: z.literal('runtime').optional(), layers: LayersSchema.optional() }),
  CockatielConfigSchema.extend({ layers: LayersSchema.optional() }),
  PRetryConfigSchema.extend({ layers: LayersSchema.optional() }),
]);

function invalid(source: string, lines: readonly string[]): FaultlineError {
  return new FaultlineError(
    FaultlineErrorCode.ConfigInvalid,
    `${source}: invalid retry configuration:\n${lines.map((l) => `  - ${l}`).join('\n')}`,
    { source, issues: lines },
  );
}

/**
 * Reads a configuration file's value. `kind` picks the runtime (the default: any `RetryConfig`
 * file works as it is), `cockatiel` or `p-retry`; `layers` adds retry layers around it.
 *
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID`, naming `source`, the path and what was expected.
 */
export function parseExecutionConfig(value: unknown, source = 'configuration'): ExecutionConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(source, ['(root): expected an object']);
  const { kind = 'runtime', layers: rawLayers, ...rest } = value as Record<string, unknown>;
  if (!EXECUTION_CONFIG_KINDS.includes(kind as ExecutionConfigKind))
    throw invalid(source, [`kind: expected one of ${EXECUTION_CONFIG_KINDS.join(', ')}, got ${JSON.stringify(kind)}`]);
  const layers = LayersSchema.safeParse(rawLayers ?? NO_LAYERS);
  if (!layers.success) throw invalid(source, formatIssues(layers.error.issues, ['layers']));
  switch (kind as ExecutionConfigKind) {
    case 'runtime': {
      const parsed = RetryConfigSchema.safeParse(rest);
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return {
        kind: 'runtime',
        name: parsed.data.name,
        description: parsed.data.description,
        retry: parsed.data,
        layers: layers.data,
      };
    }
    case 'cockatiel': {
      const parsed = CockatielConfigSchema.safeParse({ ...rest, kind });
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return {
        kind: 'cockatiel',
        name: parsed.data.name,
        description: parsed.data.description,
        library: parsed.data,
        layers: layers.data,
      };
    }
    case 'p-retry': {
      const parsed = PRetryConfigSchema.safeParse({ ...rest, kind });
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return {
        kind: 'p-retry',
        name: parsed.data.name,
        description: parsed.data.description,
        library: parsed.data,
        layers: layers.data,
      };
    }
  }
}

/** A runtime configuration as an execution configuration, with no extra layers unless given. */
export const runtimeConfig = (retry: RetryConfig, layers: Layers = NO_LAYERS): ExecutionConfig => ({
  kind: 'runtime',
  name: retry.name,
  description: retry.description,
  retry,
  layers,
});

/** True for an `ExecutionConfig`, false for a bare `RetryConfig` (which has no `kind`). */
export const isExecutionConfig = (config: ExecutionConfigLike): config is ExecutionConfig => 'kind' in config;

/** Either shape as an `ExecutionConfig`; an `ExecutionConfig` comes back as the same object. */
export const asExecutionConfig = (config: ExecutionConfigLike): ExecutionConfig =>
  isExecutionConfig(config) ? config : runtimeConfig(config);
