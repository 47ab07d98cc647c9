/**
 * Which values of a run came from the config file rather than the command line, so a refusal
 * names the file and its key (`faultline.config.ts: gates[0] …`) instead of a flag the user
 * never typed.
 */
export interface ConfigOrigins {
  readonly file: string;
  /** A loaded ref (a file a pattern matched, or a built-in name) → where it came from: `scenarios[1] (bad.yaml)`. */
  readonly refs: ReadonlyMap<string, string>;
  readonly gates: boolean;
  /** k came from the file's `k`, not `--k`. */
  readonly k: boolean;
  readonly outDir: boolean;
  /** The retry configurations came from the file's `retryConfigs`, not `--config`. */
  readonly configs?: boolean;
}
