import { z } from 'zod';
import { isFaultlineError } from '../core/errors.js';
import { parseGate } from '../stats/gates.js';
import { MAX_K } from '../scenario/maxK.js';
import { REPORTER_NAMES, type ReporterName } from '../report/write.js';
import { ProjectAgentSchema, ProjectDefaultsSchema, type ProjectAgent, type ProjectDefaults } from './projectSchema.js';

/**
 * What `faultline.config.ts` may set: the defaults of `faultline run` and `faultline compare`
 * for this project. A flag on the command line wins over the file, as in vitest and
 * Playwright. Relative paths and globs are read from the config file's folder.
 */
export interface FaultlineConfig {
  /** Scenario files, folders, globs (`scenarios/**\/*.scenario.ts`) or built-in names; positional arguments replace them. */
  readonly scenarios?: readonly string[];
  /** Retry configurations to run under: built-in names (`rulebook`, `naive`…) or files; `--config` replaces them. */
  readonly retryConfigs?: readonly string[];
  /** Trials per scenario × configuration (`--k`), from 1 to 100,000. */
  readonly k?: number;
  /** The run seed, or `'random'` to pick one and print it (`--seed`). */
  readonly seed?: number | 'random';
  /** Which reports to write (`--reporter`): console, dot, list, json, junit, markdown, html. */
  readonly reporters?: readonly ReporterName[];
  /** The folder the reports go to (`--out`). */
  readonly outDir?: string;
  /** Gates the run must hold, e.g. `'pass^4>=0.95'`, `'duplicates==0'` (`--gate`). */
  readonly gates?: readonly string[];
  /** Only scenarios whose name matches this regular expression (`--grep`). */
  readonly grep?: string;
  /** Prices per million tokens by model name, over the shipped table: `{ 'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 } }`. */
  readonly prices?: Readonly<
    Record<string, { readonly input: number; readonly output: number; readonly cachedInput?: number | undefined }>
  >;
  /**
   * Scenario fields every scenario that leaves them out gets: `services`, `model`, `http`,
   * `network`, `budget`, `checks`, `agent`. Whole fields: a scenario that sets `budget` keeps its
   * own, every key of it. Paths are read from the config file's folder.
   */
  readonly defaults?: ProjectDefaults;
  /**
   * The agents every scenario without an agent of its own runs with, one cell each: scenarios ×
   * agents × retry configurations is the run's matrix (`--agent NAME` picks). `{ name, module }`
   * is an `http` agent; `kind: 'command' | 'scripted' | 'function'` the others. A scenario's
   * `agent: { task }` (no `kind`) gives them its task (and a scripted `plan` to the scripted ones).
   */
  readonly agents?: readonly ProjectAgent[];
}

const refs = (what: string) =>
  z
    .array(z.string().min(1, `expected a ${what}, got an empty string`))
    .min(1, `list at least one ${what}, or leave the key out`);

const validRegExp = (value: string): boolean => {
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
};

/** The file's default export, checked; unknown keys are refused so a typo is not silently ignored. */
export const FaultlineConfigSchema = z
  .object({
    scenarios: refs('scenario file, folder, glob or built-in name').optional(),
    retryConfigs: refs('retry configuration name or file').optional(),
    k: z
      .number()
      .int()
      .min(1)
      .max(MAX_K, `expected at most ${MAX_K} trials per scenario × configuration (shard a larger run)`)
      .optional(),
    seed: z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.literal('random')]).optional(),
    reporters: z
      .array(z.enum(REPORTER_NAMES as [ReporterName, ...ReporterName[]]))
      .min(1)
      .optional(),
    outDir: z.string().min(1).optional(),
    gates: z
      .array(
        z.string().superRefine((expr, ctx) => {
          try {
            parseGate(expr);
          } catch (e) {
            if (!isFaultlineError(e)) throw e;
            ctx.addIssue({ code: 'custom', message: e.message });
          }
        }),
      )
      .optional(),
    grep: z.string().refine(validRegExp, 'expected a regular expression').optional(),
    prices: z
      .record(
        z.string().min(1),
        z.strictObject({
          input: z.number().min(0),
          output: z.number().min(0),
          cachedInput: z.number().min(0).optional(),
        }),
      )
      .optional(),
    defaults: ProjectDefaultsSchema.optional(),
    agents: z
      .array(ProjectAgentSchema)
      .min(1, 'list at least one agent, or leave the key out')
      .superRefine((agents, ctx) => {
        const seen = new Set<string>();
        agents.forEach((a, i) => {
          const { name } = a as { name: string };
          if (seen.has(name))
            ctx.addIssue({
              code: 'custom',
              path: [i, 'name'],
              message: `"${name}" names two agents; expected each name once (it labels the agent's cells)`,
            });
          seen.add(name);
        });
      })
      .optional(),
  })
  .strict();

// The hand-written interface carries the docs users see in their editor; this keeps it equal to the schema.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Plain<T> = {
  -readonly [K in keyof T]-?: Exclude<T[K], undefined> extends readonly (infer E)[] ? E[] : Exclude<T[K], undefined>;
};
// `defaults` and `agents` are typed by their schemas' input (functions, defaults filled later), so they are left out here.
type Checked<T> = Omit<T, 'defaults' | 'agents'>;
const schemaMatchesInterface: Same<
  Plain<Checked<FaultlineConfig>>,
  Plain<Checked<z.output<typeof FaultlineConfigSchema>>>
> = true;
void schemaMatchesInterface;

/**
 * Types a `faultline.config.ts` (it returns its argument; the CLI validates the file when it loads it).
 * @example
 * // faultline.config.ts
 * import { defineConfig } from 'faultline';
 * export default defineConfig({ scenarios: ['faultline/**\/*.scenario.ts'], k: 8, gates: ['pass^8>=1', 'duplicates==0'] });
 */
export const defineConfig = (config: FaultlineConfig): FaultlineConfig => config;
