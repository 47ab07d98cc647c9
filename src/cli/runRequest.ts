import type { Gate } from '../stats/gates.js';
import type { PriceTable } from '../model/live/prices.js';
import type { ModelMode } from '../scenario/modelSource.js';
import type { ScenarioProject } from '../scenario/project.js';
import type { Shard } from '../runner/shard.js';
import type { ReporterName } from '../report/write.js';
import type { ConfigOrigins } from '../config/configOrigins.js';
import type { SeedOption } from './options.js';

/** Everything `run` and `compare` need, flags already parsed and defaults not yet applied. */
export interface RunRequest {
  readonly scenarios: readonly string[];
  readonly configs: readonly string[];
  /** `--behaviour`, as typed: the scripted stand-in's behaviour in every scenario. */
  readonly behaviour?: readonly string[];
  readonly k: number;
  readonly seed: SeedOption;
  readonly gates?: readonly Gate[];
  readonly reporters?: readonly ReporterName[];
  readonly outDir: string;
  readonly grep?: RegExp;
  /** `summary`: a table per configuration; `compare`: configurations side by side. */
  readonly view: 'summary' | 'compare';
  /** Where model answers come from (default `replay`: a scenario's cassette if it has one, else its scripted plan). */
  readonly modelMode?: ModelMode;
  /** Also write `compare.html`, the comparison as charts (compare writes it unless `--reporter` limits the reports). */
  readonly html?: boolean;
  /** Worker threads (default: the available cores); 0 runs the trials in this process. */
  readonly workers?: number;
  readonly keepFailures?: number;
  readonly shard?: Shard;
  readonly trialTimeout?: number;
  readonly workerHeap?: number;
  /** What came from the config file, so its refusals name the file and key. */
  readonly origins?: ConfigOrigins;
  /** `--bail N`: stop handing out trials once N have failed (0 or absent: never). */
  readonly bail?: number;
  /** `--last-failed`: only the scenarios of the failing cells in `<outDir>/faultline.json`. */
  readonly lastFailed?: boolean;
  /** The scenarios were typed on the command line (with `lastFailed`, they are filtered rather than replaced by the report's). */
  readonly scenariosTyped?: boolean;
  /** `--quiet`: only failures and the summary. */
  readonly quiet?: boolean;
  /** `--out` was typed (for where a refusal says the folder came from). */
  readonly outDirTyped?: boolean;
  /** A run `--watch` started for what changed: only the scenarios loaded from these files (absolute paths). */
  readonly onlyFiles?: readonly string[];
  /** `--live`: model requests in flight at once (default `DEFAULT_MAX_CONNECTIONS`). */
  readonly maxConnections?: number;
  /** `--live`: infra errors the gates allow (default 0). */
  readonly maxInfraErrors?: number;
  readonly liveRetries?: number;
  /** Stop once the model answers have cost this much. */
  readonly maxCost?: number;
  /** Prices per million tokens by model, over the shipped table (`faultline.config.ts` `prices`). */
  readonly prices?: PriceTable;
  /** The config file's `defaults` and `agents` (the matrix), applied to every scenario loaded. */
  readonly project?: ScenarioProject;
  /** `--otlp-endpoint`: where the OTLP traces are posted (implies the `otlp` reporter). */
  readonly otlpEndpoint?: URL;
  /** `--otlp-all`: every trial kept in full, passing ones too, so each becomes a trace (implies the `otlp` reporter). */
  readonly otlpAll?: boolean;
  /** The retry configurations were asked for (`--config`, `retryConfigs`), not the command's default. */
  readonly configsGiven?: boolean;
}
