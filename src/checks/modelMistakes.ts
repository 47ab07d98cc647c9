import { failAll, pass, type EventOf, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { TrialIndex } from './trialIndex.js';

type Problem = { message: string; evidence: unknown };
type Lie = EventOf<'lie'>;
type Call = { readonly id?: string; readonly name: string; readonly arguments: string };

/** The model's own mistakes (`FaultSchema`'s model kinds, and `truncated` on a model route), named here so checks load no schema. */
export const MODEL_MISTAKE_KINDS: ReadonlySet<string> = new Set([
  'malformed_arguments',
  'invalid_arguments',
  'wrong_target',
  'unknown_tool',
  'refusal',
  'content_filter',
  'empty_text',
  'garbled',
  'error_in_200',
  'replayed',
  'context_length',
]);

/** A model route's operation (`model:openai.chat.completions`). */
const isModelRoute = (tool: string): boolean => tool.startsWith('model:');

export const isModelMistakeLie = (e: Lie): boolean =>
  isModelRoute(e.tool) && (MODEL_MISTAKE_KINDS.has(e.fault.kind) || e.fault.kind === 'truncated');

const callsOf = (said: unknown): Call[] => {
  const calls = typeof said === 'object' && said !== null ? (said as { calls?: unknown }).calls : undefined;
  return Array.isArray(calls) ? (calls as Call[]) : [];
};

/** The calls the agent got that the model did not mean: changed ones, or every call of a replayed answer. */
function wrongCalls(lie: Lie): Call[] {
  const meant = callsOf(lie.held);
  const got = callsOf(lie.answered);
  if (lie.fault.kind === 'replayed') return got;
  return got.filter((c) => !meant.some((m) => m.id === c.id && m.name === c.name && m.arguments === c.arguments));
}

/** Which rule acting on a wrong call breaks: a business check the app owes (R15), or validating the call at all (R16). */
const ruleOf = (kind: string): string => (kind === 'wrong_target' ? 'R15' : 'R16');

const shown = (c: Call): string =>
  `${c.name}(${c.arguments.length > 80 ? `${c.arguments.slice(0, 79)}…` : c.arguments})`;

/**
 * R15, R16, R20 on the model's own mistakes: after a model answer a fault made wrong (a malformed
 * or invalid call, a wrong target, an unknown tool, a replayed, truncated, refused, filtered,
 * empty, garbled or error-carrying answer, a context-length 400), the agent neither sends the
 * wrong call on to its tool before asking the model again (it validates the call and feeds the
 * error back, or stops), nor reports the task completed with that answer as the model's last word.
 */
export const modelMistakes: Checker = {
  name: 'model-mistakes',
  rules: ['R15', 'R16', 'R20'],
  description:
    'After a model answer made wrong (malformed or invalid arguments, a wrong target, an unknown tool, a refusal, ' +
    'a truncation…), the agent validates and feeds the error back or stops: it never sends the wrong call to a ' +
    'tool, nor reports success on that answer.',
  check(record): Verdict {
    const index = TrialIndex.of(record);
    const lies = index.eventsOf('lie').filter(isModelMistakeLie);
    if (lies.length === 0) return pass();
    const requests = index.eventsOf('http_request');
    const responses = index.eventsOf('response');
    const end = index.eventsOf('agent_end').at(-1);
    const problems: Problem[] = [];
    for (const lie of lies) {
      const answeredAt = responses.find((r) => r.request === lie.request)?.seq ?? lie.seq;
      const nextModel = requests.find((r) => r.kind === 'model' && r.seq > answeredAt)?.seq ?? Number.POSITIVE_INFINITY;
      const wrong = wrongCalls(lie);
      const names = new Set(wrong.map((c) => c.name));
      // An unknown tool's near miss is no route: sending its call on is calling the tool it resembles.
      for (const c of callsOf(lie.held)) if (wrong.some((w) => w.id === c.id)) names.add(c.name);
      const acted = requests.find(
        (r) => r.kind === 'tool' && r.seq > answeredAt && r.seq < nextModel && names.has(r.tool),
      );
      const what = `the model's ${lie.fault.kind} answer to ${lie.request} at t=${lie.t}ms`;
      if (acted) {
        problems.push({
          message:
            `${what} called ${wrong.map(shown).join(', ')}, and the agent sent it on to ${acted.tool} ` +
            `(${acted.request}, ${acted.method} ${acted.url}) at t=${acted.t}ms without asking the model again: ` +
            `validate the call and feed the error back, or stop (${ruleOf(lie.fault.kind)})`,
          evidence: {
            lie: lie.seq,
            request: lie.request,
            fault: lie.fault,
            answered: lie.answered,
            acted: acted.request,
          },
        });
        continue;
      }
      if (end !== undefined && end.outcome === 'completed' && nextModel > end.seq) {
        problems.push({
          message:
            `${what} was the model's last word, and the agent reported the task completed on it ` +
            `(agent_end at t=${end.t}ms): an answer ${lie.fault.kind === 'context_length' ? 'refused' : 'made wrong'} ` +
            'is no success; ask again or report it unfinished (R20)',
          evidence: { lie: lie.seq, request: lie.request, fault: lie.fault, answered: lie.answered, end: end.seq },
        });
      }
    }
    return failAll(problems);
  },
};
