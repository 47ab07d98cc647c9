/**
 * Which golden trials a change of same-instant order moved, and how: every golden case run from
 * another checkout's sources (`BEFORE=<root>`, e.g. main before issue 44's re-pin) and from this
 * one's, each history cut into its virtual instants and compared instant by instant:
 *
 * - `same`: byte for byte;
 * - `order`: the same events at every instant, in another order (each instant's events as a multiset, `seq` aside);
 * - `order+ids`: the same, once the ids minted in order of arrival (`req-`, `call-`, `op-`, a service's own) are
 *   renamed by first appearance: the same work, numbered in the new order;
 * - `content`: something else differs (an agent that went another way because another call reached a service first),
 *   with the first instant that differs.
 *
 *   BEFORE=/work/main npx tsx test/golden/orderOnly.ts
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { MIXED_CASES } from './mixedCases.js';
import { serviceCases, CASE_CONFIGS } from './serviceCases.js';
import { immediateCases } from './immediateCases.js';

type Event = Record<string, unknown> & { t: number; seq: number };
type Trial = { history: Event[]; [key: string]: unknown };

async function checkout(root: string) {
  const load = (path: string): Promise<Record<string, unknown>> => import(pathToFileURL(resolve(root, path)).href);
  const api = await load('src/public/index.ts');
  const { runTrial } = (await load('src/runner/trial.ts')) as { runTrial: (o: unknown) => Promise<Trial> };
  const library = (await load('src/scenario/library.ts')) as {
    loadConfigs: (n: string[]) => Promise<{ name: string }[]>;
    loadScenarios: (n: string[]) => Promise<unknown[]>;
  };
  const { defineScenario } = api as unknown as { defineScenario: (i: unknown) => unknown };
  const trials = new Map<string, Trial>();
  const run = async (label: string, scenario: unknown, config: unknown, runSeed: number): Promise<void> => {
    trials.set(label, await runTrial({ scenario, config, runSeed, trialIndex: 0 }));
  };
  for (const [label, input] of Object.entries(MIXED_CASES))
    for (const config of await library.loadConfigs(['rulebook', 'naive']))
      for (const seed of [1, 2])
        await run(`${label} × ${config.name} × seed ${seed}`, defineScenario(input), config, seed);
  for (const [name, agents] of [
    ['optimistic-100', 30],
    ['jobs-outage', 20],
  ] as const) {
    const [scenario] = (await library.loadScenarios([name])) as object[];
    for (const configName of ['full-jitter', 'cockatiel-decorrelated', 'p-retry-randomized']) {
      const [config] = await library.loadConfigs([configName]);
      await run(`${name} × ${configName}`, { ...scenario, agents }, config, 3);
    }
  }
  const [rulebook] = await library.loadConfigs(['rulebook']);
  for (const [label, input] of Object.entries(immediateCases(api as never)))
    await run(`immediates: ${label}`, defineScenario(input), rulebook, 1);
  const configs = await library.loadConfigs([...CASE_CONFIGS]);
  for (const [label, input] of Object.entries(serviceCases(api as never)))
    for (const config of configs)
      for (const seed of [1, 2])
        await run(`${label} × ${config.name} × seed ${seed}`, defineScenario(input), config, seed);
  return trials;
}

/** Ids minted in order of arrival (`req-3`, `tkt-2`, …) renamed by first appearance in the history as a whole. */
function renamed(history: readonly Event[]): Event[] {
  const names = new Map<string, string>();
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value.replace(/\b([a-z]+)-(\d+)\b/g, (id, prefix: string) => {
        if (!names.has(id)) names.set(id, `${prefix}#${names.size}`);
        return names.get(id)!;
      });
    if (Array.isArray(value)) return value.map(rename);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]));
    return value;
  };
  // Named in a canonical order (each instant's events sorted), so two orders of the same work name alike.
  const sorted = byInstant(history).flatMap((events) => events.slice().sort());
  for (const text of sorted) rename(JSON.parse(text));
  return history.map((e) => rename(e) as Event);
}

/** Each instant's events, `seq` aside, as JSON strings. */
function byInstant(history: readonly Event[]): string[][] {
  const instants = new Map<number, string[]>();
  for (const { seq: _seq, ...rest } of history) {
    const list = instants.get(rest.t) ?? [];
    list.push(JSON.stringify(rest));
    instants.set(rest.t, list);
  }
  return [...instants.keys()].sort((a, b) => a - b).map((t) => instants.get(t)!);
}

const sameMultisets = (a: readonly Event[], b: readonly Event[]): number | undefined => {
  const x = byInstant(a);
  const y = byInstant(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = (x[i] ?? []).slice().sort().join('\n');
    const q = (y[i] ?? []).slice().sort().join('\n');
    if (p !== q) return JSON.parse((x[i] ?? y[i])![0]!).t as number;
  }
  return undefined;
};

const beforeRoot = process.env['BEFORE'];
if (!beforeRoot) throw new Error('BEFORE=<root of the other checkout> is needed');
const before = await checkout(beforeRoot);
const after = await checkout(resolve(import.meta.dirname, '../..'));
const tally: Record<string, number> = {};
for (const [label, old] of before) {
  const now = after.get(label)!;
  let verdict: string;
  const rest = (t: Trial): string => JSON.stringify({ ...t, history: undefined });
  if (JSON.stringify(old) === JSON.stringify(now)) verdict = 'same';
  else if (sameMultisets(old.history, now.history) === undefined && rest(old) === rest(now)) verdict = 'order';
  else if (sameMultisets(renamed(old.history), renamed(now.history)) === undefined && old.status === now.status)
    verdict = 'order+ids';
  else
    verdict = `content (first at t=${sameMultisets(renamed(old.history), renamed(now.history)) ?? '-'}; status ${old.status} → ${now.status}; ${old.history.length} → ${now.history.length} events)`;
  const kind = verdict.split(' ')[0]!;
  tally[kind] = (tally[kind] ?? 0) + 1;
  console.log(`${verdict.padEnd(12)} ${label}`);
}
console.log(tally);
