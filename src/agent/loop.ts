import type { AgentOutcomeKind, Claim, Clock, History, NewEvent } from '../core/index.js';
import type { Mutable } from '../core/Mutable.js';
import type { ToolExecutor } from '../runtime/ToolExecutor.js';
import { renderFeedback, type FeedbackFormat } from '../runtime/feedback/index.js';
import type { Message, Model } from '../model/model.js';

/** How the agent's part of a trial ended. */
export type LoopEnd =
  | {
      readonly kind: 'ended';
      readonly outcome: AgentOutcomeKind;
      readonly message: string;
      readonly claims: readonly Claim[];
      readonly turns: number;
    }
  /** The model never gave a final answer within `maxTurns`. */
  | { readonly kind: 'max_turns'; readonly turns: number };
export type LoopEndKind = LoopEnd['kind'];

export interface AgentLoopOptions {
  readonly model: Model;
  readonly executor: ToolExecutor;
  readonly task: string;
  /** Model turns allowed, the final one included (R28). */
  readonly maxTurns: number;
  readonly history: History;
  readonly clock: Clock;
  /** How tool results are shown to the model (R16); `openai` by default. */
  readonly format?: FeedbackFormat;
  /** Passed to the executor so all callers of a trial share one retry budget (R11). */
  readonly caller?: string;
}

/**
 * Runs one agent: ask the model, run the calls it proposes through the executor, show it
 * the rendered results, until it answers `final` or runs out of turns. A failed call is
 * information for the model, not the end (R17). Exceptions from the model or the executor
 * propagate: the runner records them as a crashed trial.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<LoopEnd> {
  const { model, executor, task, maxTurns, history, clock } = options;
  const format = options.format ?? 'openai';
  const callOptions = (turn: number): { turn: number; caller?: string } =>
    options.caller === undefined ? { turn } : { turn, caller: options.caller };
  const start = clock.now();
  const { caller } = options;
  /**
   * Stamps `event` (its `seq` and `t` slots first) with the agent's name last, where `record`'s copy of a spread
   * of `{ caller }` put it: `record` copied each event once more, and the spread made one more object.
   */
  const stamp = <E extends NewEvent & { caller?: string }>(event: E & { seq: number; t: number }): void => {
    if (caller !== undefined) (event as Mutable<E>).caller = caller;
    history.stamp(event);
  };
  const messages: Message[] = [{ role: 'user', text: task }];

  for (let turn = 1; turn <= maxTurns; turn++) {
    const action = await model.next({ task, tools: executor.tools, messages: [...messages], now: clock.now() - start });
    messages.push({ role: 'assistant', action });

    if (action.kind === 'final') {
      stamp({ seq: 0, t: 0, type: 'model_turn', turn, action: 'final' });
      stamp({
        seq: 0,
        t: 0,
        type: 'agent_end',
        turn,
        outcome: action.outcome,
        claims: action.claims,
        message: action.message,
      });
      return { kind: 'ended', outcome: action.outcome, message: action.message, claims: action.claims, turns: turn };
    }

    if (action.kind === 'wait') {
      stamp({ seq: 0, t: 0, type: 'model_turn', turn, action: 'wait', waitMs: action.ms });
      stamp({ seq: 0, t: 0, type: 'agent_wait', turn, ms: action.ms });
      await clock.sleep(action.ms);
      continue;
    }

    // The model's own ids name its calls (as tool_use ids do); the executor mints its own call ids.
    const calls = action.calls.map((c, i) => ({ call: c.id ?? `turn-${turn}.${i + 1}`, tool: c.tool, input: c.input }));
    stamp({ seq: 0, t: 0, type: 'model_turn', turn, action: 'tool_calls', calls });
    for (const proposed of calls) {
      const result = await executor.call(proposed.tool, proposed.input, callOptions(turn));
      const shown = renderFeedback(result, format);
      stamp({
        seq: 0,
        t: 0,
        type: 'feedback',
        turn,
        call: result.call,
        format: shown.format,
        isError: shown.isError,
        text: shown.text,
      });
      messages.push({ role: 'tool', call: proposed.call, tool: proposed.tool, result, text: shown.text });
    }
  }
  return { kind: 'max_turns', turns: maxTurns };
}
