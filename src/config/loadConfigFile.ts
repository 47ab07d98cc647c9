import { dirname, relative, resolve } from 'node:path';
import { FaultlineErrorCode } from '../core/errors.js';
import { expandRef } from '../scenario/expandRef.js';
import { loadFile } from '../scenario/loadFile.js';
import { formatIssues } from '../core/zodIssues.js';
import type { z } from 'zod';
import { FaultlineConfigSchema } from './defineConfig.js';
import { invalidConfig as fail } from './findConfigFile.js';

/** A config file, checked, with its paths made absolute (they are written relative to the file). */
export interface LoadedConfigFile {
  /** The file as the user named it (or as found), for messages. */
  readonly file: string;
  readonly config: z.output<typeof FaultlineConfigSchema>;
  /** Each resolved scenario and configuration ref → the key and entry it came from (`scenarios[1] (bad.yaml)`). */
  readonly origins: ReadonlyMap<string, string>;
}

async function resolveRefs(
  refs: readonly string[] | undefined,
  dir: string,
  key: string,
  file: string,
  origins: Map<string, string>,
): Promise<string[] | undefined> {
  if (refs === undefined) return undefined;
  const out: string[] = [];
  for (const [i, ref] of refs.entries()) {
    const files = await expandRef(ref, dir);
    if (files.length === 0)
      throw fail(file, [
        `${key}[${i}]: the pattern "${ref}" matches no file (looked in ${relative(process.cwd(), dir) || '.'})`,
      ]);
    for (const f of files) if (!origins.has(f)) origins.set(f, `${key}[${i}] (${ref})`);
    out.push(...files);
  }
  return out;
}

/** Loads `file` (TypeScript through tsx, or JavaScript), checks its default export and resolves its paths. */
export async function loadConfigFile(file: string): Promise<LoadedConfigFile> {
  const value = await loadFile(file, FaultlineErrorCode.ConfigInvalid);
  const parsed = FaultlineConfigSchema.safeParse(value);
  if (!parsed.success) throw fail(file, formatIssues(parsed.error.issues));
  const dir = dirname(resolve(file));
  const { scenarios, retryConfigs, outDir, ...rest } = parsed.data;
  const origins = new Map<string, string>();
  const resolvedScenarios = await resolveRefs(scenarios, dir, 'scenarios', file, origins);
  const resolvedConfigs = await resolveRefs(retryConfigs, dir, 'retryConfigs', file, origins);
  return {
    file,
    origins,
    config: {
      ...rest,
      ...(resolvedScenarios && { scenarios: resolvedScenarios }),
      ...(resolvedConfigs && { retryConfigs: resolvedConfigs }),
      ...(outDir !== undefined && { outDir: relative(process.cwd(), resolve(dir, outDir)) || '.' }),
    },
  };
}
