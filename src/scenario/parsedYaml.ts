import { createHash } from 'node:crypto';

/**
 * The built-in scenarios and configurations as `npm run build` parsed them
 * (`scripts/yamlCache.mjs` writes `dist/scenario/yamlCache.js`): parsing 19 YAML files on a cold
 * start costs more CPU than running their 76 trials. Entries are keyed by the SHA-256 of the
 * file's text, so a file edited since the build, or any other file, is parsed as before; the
 * value is kept as JSON text and parsed anew on each read, so no two readers share an object.
 * Only files whose parsed value survives JSON unchanged were cached.
 */
let cache: Promise<ReadonlyMap<string, string>> | undefined;

const EMPTY: ReadonlyMap<string, string> = new Map();

function load(): Promise<ReadonlyMap<string, string>> {
  // Computed, so the compiler does not look for a module that only the build writes (running from src/, there is none).
  const url = new URL('./yamlCache.js', import.meta.url).href;
  cache ??= import(url).then(
    (m: { readonly PARSED?: Readonly<Record<string, string>> }) => new Map(Object.entries(m.PARSED ?? {})),
    () => EMPTY,
  );
  return cache;
}

/** The hash a cache entry is found under. */
export const yamlTextKey = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The value `text` parsed to at build time, or undefined when it is not in the cache. */
export async function parsedAtBuild(text: string): Promise<unknown> {
  const json = (await load()).get(yamlTextKey(text));
  return json === undefined ? undefined : (JSON.parse(json) as unknown);
}
