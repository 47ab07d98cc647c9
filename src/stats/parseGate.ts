// Gate expressions (`pass^4>=0.9@95%`) into gates, and the gates a run holds unless told otherwise.
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import {
  CELL_METRICS,
  GATE_OPS,
  isRate,
  metricText,
  percent,
  RUN_METRICS,
  scopeText,
  type CellMetricName,
  type Gate,
  type GateMetric,
  type GateOp,
  type GateScope,
  type RunMetricName,
} from './gate.js';

const metricNames = [...Object.keys(CELL_METRICS), ...Object.keys(RUN_METRICS)];

/** The grammar, shown whenever a gate does not parse. */
export const GATE_GRAMMAR = [
  'gate grammar: [scope:]metric op value',
  '  scope:  <scenario> | scenario=<name> | config=<name>, comma-separated (default: every cell)',
  `  metric: pass^<n|k>, pass@<n|k>, ${metricNames.join(', ')}`,
  `  op:     ${GATE_OPS.join(' ')}`,
  '  value:  a number, or a percentage such as 95%',
  '  bound:  @<confidence> after a rate (pass^n, pass@n, pass_rate, recovery) with >=, >, <=, <: compares the',
  '          lower (>=, >) or upper (<=, <) bound of its two-sided interval, e.g. @95%',
  '  e.g.    pass^4>=0.95, order-partial-write:pass^2>=1, config=rulebook:duplicates==0, pass^4>=0.9@95%',
].join('\n');

function usage(text: string, why: string): FaultlineError {
  return new FaultlineError(FaultlineErrorCode.Usage, `invalid gate "${text}": ${why}\n${GATE_GRAMMAR}`, {
    gate: text,
  });
}

function parseScope(text: string, raw: string): GateScope {
  let scenario: string | undefined;
  let config: string | undefined;
  for (const part of raw.split(',').map((p) => p.trim())) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? 'scenario' : part.slice(0, eq).trim();
    const value = eq < 0 ? part : part.slice(eq + 1).trim();
    if (value === '') throw usage(text, `empty name in scope "${raw}"`);
    if (key === 'scenario' && scenario === undefined) scenario = value;
    else if (key === 'config' && config === undefined) config = value;
    else if (key === 'scenario' || key === 'config') throw usage(text, `scope "${raw.trim()}" names ${key} twice`);
    else throw usage(text, `unknown scope key "${key}" (use scenario=<name> or config=<name>)`);
  }
  return { ...(scenario !== undefined ? { scenario } : {}), ...(config !== undefined ? { config } : {}) };
}

function parseMetric(text: string, raw: string): GateMetric {
  const pass = /^pass([\^@])(\d+|k)$/.exec(raw);
  if (pass) {
    const k = pass[2] === 'k' ? 'k' : Number(pass[2]);
    if (k !== 'k' && k < 1) throw usage(text, `k must be at least 1 in "${raw}"`);
    return { kind: pass[1] === '^' ? 'pass_hat' : 'pass_at', k };
  }
  if (Object.hasOwn(CELL_METRICS, raw)) return { kind: 'cell', name: raw as CellMetricName };
  if (Object.hasOwn(RUN_METRICS, raw)) return { kind: 'run', name: raw as RunMetricName };
  throw usage(text, `unknown metric "${raw}"`);
}

function parseValue(text: string, raw: string): number {
  const percent = raw.endsWith('%');
  const body = percent ? raw.slice(0, -1) : raw;
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(body)) throw usage(text, `"${raw}" is not a number`);
  return percent ? Number(body) / 100 : Number(body);
}

function parseConfidence(text: string, raw: string): number {
  const value = parseValue(text, raw);
  if (!(value > 0 && value < 1)) throw usage(text, `confidence "${raw}" must be between 0% and 100% (exclusive)`);
  return value;
}

/**
 * Parses a gate expression. Throws `FAULTLINE_USAGE`, with the grammar, on bad input.
 *
 * @example parseGate('config=rulebook:duplicates==0')
 */
export function parseGate(text: string): Gate {
  const opMatch = /(>=|<=|==|!=|>|<)/.exec(text);
  if (!opMatch) throw usage(text, `no comparison (one of ${GATE_OPS.join(' ')})`);
  const op = opMatch[1] as GateOp;
  const left = text.slice(0, opMatch.index);
  const right = text.slice(opMatch.index + op.length).trim();
  const colon = left.lastIndexOf(':');
  const scope = colon < 0 ? {} : parseScope(text, left.slice(0, colon));
  const metric = parseMetric(text, left.slice(colon + 1).trim());
  const at = right.indexOf('@');
  const threshold = parseValue(text, (at < 0 ? right : right.slice(0, at)).trim());
  const base = `${scopeText(scope)}${metricText(metric)}${op}${threshold}`;
  if (at < 0) return { text: base, scope, metric, op, threshold };
  if (!isRate(metric))
    throw usage(
      text,
      `a confidence bound (@) applies only to a rate: pass^n, pass@n, pass_rate or recovery, not ${metricText(metric)}`,
    );
  if (op === '==' || op === '!=')
    throw usage(
      text,
      `a confidence bound (@) needs >=, >, <= or <: an interval has no single value to compare with ${op}`,
    );
  const confidence = parseConfidence(text, right.slice(at + 1).trim());
  return { text: `${base}@${percent(confidence)}`, scope, metric, op, threshold, confidence };
}

/**
 * Fault coverage: every rule of a cell's plan fired in at least one of its trials. A gate that
 * holds in a cell whose fault never happened says nothing, so this one is judged beside any
 * gates given (`withCoverageGate`), unless one of them names `unexercised` itself.
 */
export const COVERAGE_GATE: Gate = parseGate('unexercised==0');

/** `gates` and the coverage gate, unless they already judge `unexercised`. */
export const withCoverageGate = (gates: readonly Gate[]): readonly Gate[] =>
  gates.some((g) => g.metric.kind === 'cell' && g.metric.name === 'unexercised') ? gates : [...gates, COVERAGE_GATE];

/**
 * A live run's gates fail closed: beside the gates given, infra errors (the provider failing on
 * its own) may not pass `max` (`--max-infra-errors`, default 0), since a trial not judged is
 * not a pass. A gate given on `infra_errors` replaces it.
 */
export const withInfraGate = (gates: readonly Gate[], max: number): readonly Gate[] =>
  gates.some((g) => g.metric.kind === 'run' && g.metric.name === 'infra_errors')
    ? gates
    : [...gates, parseGate(`infra_errors<=${max}`)];

/**
 * The gates a run must hold unless told otherwise: every scenario passes all its trials under
 * each configuration, with no duplicate side effect, no budget violation, and every fault rule fired.
 */
export const DEFAULT_GATES: readonly Gate[] = withCoverageGate(
  ['pass^k>=1', 'duplicates==0', 'budget_violations==0'].map(parseGate),
);
