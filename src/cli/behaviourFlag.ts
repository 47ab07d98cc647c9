import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import {
  BEHAVIOURS,
  BehaviourMixSchema,
  describeBehaviour,
  type Behaviour,
  type BehaviourSpec,
} from '../model/behaviours.js';
import type { Scenario } from '../scenario/scenario.js';
import { overridden } from '../scenario/scenarioOverride.js';

const usage = (message: string): FaultlineError => new FaultlineError(FaultlineErrorCode.Usage, message);

/** A mixture's weight as typed: a number when it reads as one, else the text (the schema then says what it expected). */
const weightOf = (text: string): unknown => {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
};

/** One behaviour or one mixture, as typed (`careful`, `careful=0.9,ignores-retry-after=0.1`), checked by the scenario's schema. */
function parseOne(text: string): { spec: BehaviourSpec; text: string } {
  const known = `known behaviours: ${BEHAVIOURS.join(', ')}`;
  if (!text.includes('=')) {
    const name = text.trim();
    if ((BEHAVIOURS as readonly string[]).includes(name)) return { spec: name as Behaviour, text: name };
    throw usage(
      `--behaviour ${JSON.stringify(text)}: not a behaviour (${known}; or a mixture such as careful=0.9,retries-blindly=0.1)`,
    );
  }
  const parts = text.split(',').map((part) => part.split('='));
  const bad = parts.find((p) => p.length !== 2 || p[0]!.trim() === '');
  if (bad !== undefined)
    throw usage(
      `--behaviour ${JSON.stringify(text)}: expected name=weight pairs separated by commas, got "${bad.join('=')}" (${known})`,
    );
  const names = parts.map((p) => p[0]!.trim());
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined)
    throw usage(`--behaviour ${JSON.stringify(text)}: "${twice}" is weighted twice; name each behaviour once`);
  const mix = Object.fromEntries(parts.map((p) => [p[0]!.trim(), weightOf(p[1]!.trim())]));
  const parsed = BehaviourMixSchema.safeParse(mix);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => (i.path.length > 0 ? `${String(i.path[0])}: ${i.message}` : i.message));
    throw usage(`--behaviour ${JSON.stringify(text)}: ${why.join('; ')}`);
  }
  return { spec: parsed.data, text: describeBehaviour(parsed.data) };
}

/**
 * `--behaviour careful`, a mixture `--behaviour careful=0.9,ignores-retry-after=0.1`, or several behaviours to run
 * side by side: `--behaviour careful,retries-blindly` or the flag repeated (a value with `=` is one mixture). Several
 * are taken only where `several` says the command gives each a cell of its own (run, compare); each named once.
 */
export function parseBehaviourFlag(
  values: readonly string[],
  several = false,
): readonly { readonly spec: BehaviourSpec; readonly text: string }[] {
  const texts = values.flatMap((v) => (v.includes('=') ? [v] : v.split(',')));
  const parsed = texts.map(parseOne);
  const named = parsed.map((p) => p.text);
  const twice = named.find((n, i) => named.indexOf(n) !== i);
  if (twice !== undefined)
    throw usage(`--behaviour ${values.join(' ')}: ${twice} is named twice; name each behaviour once`);
  if (parsed.length > 1 && !several)
    throw usage(
      `--behaviour was given ${parsed.length} behaviours (${named.join(', ')}); this command takes one behaviour or ` +
        `one mixture, such as careful=0.9,ignores-retry-after=0.1 (to compare behaviours, a cell each: ` +
        `faultline compare --behaviour ${named.join(',')})`,
    );
  return parsed;
}

/** Whether the scripted stand-in plays a part in the scenario: a scripted agent, or a model block with a plan. */
const hasStandIn = (s: Scenario): boolean => s.agent.kind === 'scripted' || s.model?.plan !== undefined;

/**
 * The scenarios with the stand-in's behaviour set to each behaviour given (a scripted agent's and a scripted model's),
 * as if each file said so; a trial's seed and history are those of the scenario edited to it. Several behaviours
 * (`several`: run, compare) make one variant per behaviour, scenario by scenario, each a cell of its own as a matrix
 * agent's is. Refused when no scenario of the run has the stand-in (its agents decide for themselves), and with a real
 * model (`--live`, `--record`); the others, if some lack it, are said on stderr and run once as they are, as `--config`
 * is for http and command agents.
 */
export function withBehaviourFlag(
  scenarios: readonly Scenario[],
  values: readonly string[] | undefined,
  options: { readonly live?: boolean; readonly several?: boolean; readonly note: (message: string) => void },
): Scenario[] {
  if (values === undefined || values.length === 0) return [...scenarios];
  const behaviours = parseBehaviourFlag(values, options.several === true);
  const text = behaviours.map((b) => b.text).join(' ');
  if (options.live === true)
    throw usage(`--behaviour ${text}: not with --live or --record (a real model answers; it behaves as it does)`);
  const without = [...new Set(scenarios.filter((s) => !hasStandIn(s)).map((s) => `${s.name} (${s.agent.kind} agent)`))];
  const one = without.length === 1;
  if (without.length === scenarios.length)
    throw usage(
      `--behaviour ${text}: no scenario of this run has the scripted stand-in (a scripted agent, or a model block ` +
        `with a plan) whose behaviour it sets; ${without.join(', ')} ${one ? 'decides for itself' : 'decide for themselves'}`,
    );
  if (without.length > 0)
    options.note(
      `--behaviour ${text} does not apply to ${without.join(', ')}: no scripted stand-in; ` +
        `${one ? 'it runs' : 'they run'} as written`,
    );
  return scenarios.flatMap((s) =>
    hasStandIn(s) ? behaviours.map(({ spec }) => overridden(s, { behaviour: spec })) : [s],
  );
}
