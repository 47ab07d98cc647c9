import type { HttpAnswer } from './HttpAnswer.js';
import type { HttpRoute } from './HttpRoute.js';

/**
 * Asked as the answer to a tool request (never a model call) is about to go back, its effect
 * committed if it had one: `true` holds the answer for good (a scenario's `crash.agent` is
 * killing the agent), so it is lost as a hang is, when the dead client's connection closes.
 */
export interface AnswerGate {
  holds(answered: { readonly request: string; readonly tool: string }): boolean;
  /** `true` refuses the request arriving now before it reaches the world or the history: an abandoned agent start sent it. */
  fromAbandoned?(): boolean;
  /** Told of each request (model calls too) as it arrives, before any fault or latency. */
  arrived?(request: string): void;
  /** `true` holds this request's answer, model calls included: the agent start that sent it was abandoned. */
  abandoned?(request: string): boolean;
}

/**
 * The answer to go back: held as a hang when `gate` holds this tool request's answer (never a model
 * call's). An answer a fault already lost (a partial write's hang) is asked about too, so that its
 * committed effect counts towards the trigger, and stays lost as it was.
 */
export function gated(gate: AnswerGate | undefined, answer: HttpAnswer, request: string, route: HttpRoute): HttpAnswer {
  if (gate?.abandoned?.(request) === true)
    return answer.kind === 'hang'
      ? answer
      : { kind: 'hang', reason: 'held: the agent start that sent it was abandoned (crash.agent)' };
  if (!gate || route.kind === 'model' || !gate.holds({ request, tool: route.operation })) return answer;
  if (answer.kind === 'hang') return answer;
  return { kind: 'hang', reason: 'held: the agent was killed before this answer reached it (crash.agent)' };
}
