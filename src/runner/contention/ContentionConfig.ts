import { z } from 'zod';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';
import { CockatielConfigSchema, type CockatielConfig } from '../../runtime/adapters/cockatiel.js';
import { PRetryConfigSchema, type PRetryConfig } from '../../runtime/adapters/pRetry.js';
import { RetryConfigSchema, type RetryConfig } from '../../runtime/config.js';
import { formatIssues } from '../../core/zodIssues.js';

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

const NO_LAYERS: Layers = { sdkRetries: 0, agentRepeats: 0 };

/** A configuration compared under contention: faultline's runtime with a `RetryConfig`, or a third-party library. */
export type ContentionConfig =
  | { readonly kind: 'runtime'; readonly name: string; readonly description: string; readonly retry: RetryConfig; readonly layers: Layers }
  | { readonly kind: 'cockatiel'; readonly name: string; readonly description: string; readonly library: CockatielConfig; readonly layers: Layers }
  | { readonly kind: 'p-retry'; readonly name: string; readonly description: string; readonly library: PRetryConfig; readonly layers: Layers };
export type ContentionConfigKind = ContentionConfig['kind'];

const KINDS: readonly ContentionConfigKind[] = ['runtime', 'cockatiel', 'p-retry'];

function invalid(source: string, lines: readonly string[]): FaultlineError {
  return new FaultlineError(FaultlineErrorCode.ConfigInvalid, `${source}: invalid retry configuration:\n${lines.map((l) => `  - ${l}`).join('\n')}`, { source, issues: lines });
}

/**
 * Reads a configuration file's value. `kind` picks the runtime (the default: any `RetryConfig`
 * file works as it is), `cockatiel` or `p-retry`; `layers` adds retry layers around it.
 *
 * @throws FaultlineError `FAULTLINE_CONFIG_INVALID`, naming `source`, the path and what was expected.
 */
export function parseContentionConfig(value: unknown, source = 'configuration'): ContentionConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(source, ['(root): expected an object']);
  const { kind = 'runtime', layers: rawLayers, ...rest } = value as Record<string, unknown>;
  if (!KINDS.includes(kind as ContentionConfigKind)) throw invalid(source, [`kind: expected one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`]);
  const layers = LayersSchema.safeParse(rawLayers ?? NO_LAYERS);
  if (!layers.success) throw invalid(source, formatIssues(layers.error.issues).map((l) => `layers.${l}`));
  switch (kind as ContentionConfigKind) {
    case 'runtime': {
      const parsed = RetryConfigSchema.safeParse(rest);
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return { kind: 'runtime', name: parsed.data.name, description: parsed.data.description, retry: parsed.data, layers: layers.data };
    }
    case 'cockatiel': {
      const parsed = CockatielConfigSchema.safeParse({ ...rest, kind });
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return { kind: 'cockatiel', name: parsed.data.name, description: parsed.data.description, library: parsed.data, layers: layers.data };
    }
    case 'p-retry': {
      const parsed = PRetryConfigSchema.safeParse({ ...rest, kind });
      if (!parsed.success) throw invalid(source, formatIssues(parsed.error.issues));
      return { kind: 'p-retry', name: parsed.data.name, description: parsed.data.description, library: parsed.data, layers: layers.data };
    }
  }
}

/** A runtime configuration as a contention configuration, with no extra layers. */
export const runtimeConfig = (retry: RetryConfig, layers: Layers = NO_LAYERS): ContentionConfig => ({ kind: 'runtime', name: retry.name, description: retry.description, retry, layers });
