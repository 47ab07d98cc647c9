// After `tsc`: parses every YAML file under scenarios/ (the built-in library, its crowds and
// configurations, the worked examples) with the built loader and writes what each parsed to
// dist/scenario/yamlCache.js, keyed by the SHA-256 of the file's text (see src/scenario/parsedYaml.ts).
// A file whose value would not survive JSON unchanged (NaN, -0, an error) is left out: it is
// parsed at run time as before.
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist', 'scenario', 'yamlCache.js');
// Gone first, so the loader below parses every file itself.
rmSync(out, { force: true });
const { loadFile } = await import(join(root, 'dist', 'scenario', 'loadFile.js'));
const { yamlTextKey } = await import(join(root, 'dist', 'scenario', 'parsedYaml.js'));
const { FaultlineErrorCode } = await import(join(root, 'dist', 'core', 'errors.js'));

const files = readdirSync(join(root, 'scenarios'), { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && /\.ya?ml$/.test(d.name))
  .map((d) => join(d.parentPath ?? d.path, d.name))
  .sort();
const parsed = {};
for (const file of files) {
  let value;
  try {
    value = await loadFile(file, FaultlineErrorCode.ScenarioInvalid);
  } catch {
    continue; // a file that does not load is refused at run time, with its message
  }
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) continue;
  // As loadFile reads it: without a byte-order mark.
  parsed[yamlTextKey(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''))] = json;
}
writeFileSync(
  out,
  `// Written by scripts/yamlCache.mjs at build time: YAML text's SHA-256 → its parsed value as JSON.\nexport const PARSED = ${JSON.stringify(parsed, null, 0)};\n`,
);
console.log(`yamlCache: ${Object.keys(parsed).length} of ${files.length} YAML files parsed at build time`);
