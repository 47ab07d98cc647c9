import { Cassette, type CassetteEntry } from './Cassette.js';

/*
 * A recorded conversation holds whatever the agent sent its model, a scenario's declared
 * `secrets` among them when the agent passed one on. A cassette is written beside the report
 * (and a scenario's beside the scenario, to be committed), so it must not hold them (R13); yet a
 * replay must send and match the very same requests. So each declared secret is written as a
 * marker naming its place in the scenario's `secrets:` list, and put back when the cassette is
 * read for that scenario: the file holds no secret, the replay sees the conversation as it was.
 */

const MARKER = '[REDACTED:secret-';

/** The marker written for `secrets[index]`. */
const secretMarker = (index: number): string => `${MARKER}${index}]`;

/** Every string of `value`, at any depth, with `replace` applied; parts with nothing replaced stay the same objects. */
function mapStrings(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, replace));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [replace(k), mapStrings(v, replace)]));
  return value;
}

function mapEntries(cassette: Cassette, replace: (text: string) => string): Cassette {
  const entries = cassette.entries.map((e): CassetteEntry => ({
    request: { ...e.request, body: mapStrings(e.request.body, replace) },
    response: { ...e.response, body: mapStrings(e.response.body, replace) },
  }));
  return new Cassette(cassette.api, entries, cassette.trial);
}

/** The cassette with every declared secret replaced by its marker (longest first, so one secret inside another is not split). */
export function sealSecrets(cassette: Cassette, secrets: readonly string[]): Cassette {
  const order = secrets
    .map((s, i) => [s, i] as const)
    .filter(([s]) => s.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  if (order.length === 0) return cassette;
  return mapEntries(cassette, (text) =>
    order.reduce((t, [s, i]) => (t.includes(s) ? t.split(s).join(secretMarker(i)) : t), text),
  );
}

/** The cassette with each marker replaced by the scenario's secret at its place again. */
export function openSecrets(cassette: Cassette, secrets: readonly string[]): Cassette {
  if (secrets.length === 0) return cassette;
  return mapEntries(cassette, (text) =>
    text.includes(MARKER) ? secrets.reduce((t, s, i) => t.split(secretMarker(i)).join(s), text) : text,
  );
}
