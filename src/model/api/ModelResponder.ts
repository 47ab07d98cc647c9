import { ANSWER_USAGE } from './usage.js';
import { canonicalJson, IdSource, type Clock, type ToolContract } from '../../core/index.js';
import type { Message, Model, ModelAction } from '../model.js';
import { streamReply } from '../../faults/http/HttpAnswer.js';
import type { HttpRoute, ServeContext } from '../../faults/http/HttpRoute.js';
import { asksForStream } from '../../faults/http/sse.js';
import type { ToolResultReader } from './readToolResult.js';
import type { Mistaken, Said } from './mistakes/said.js';
import { ModelMistakes } from './mistakes/ModelMistakes.js';

/** A model API's request, read into what a `Model` is asked. */
export interface ModelRequestView {
  readonly task: string;
  readonly tools: readonly ToolContract[];
  readonly messages: readonly Message[];
}

export interface ModelResponderOptions {
  /** The scenario's reader for its app's own tool-result format (`model: { readToolResult }`). */
  readonly readToolResult?: ToolResultReader;
}

/** How one model API reads requests and writes answers. */
export interface ModelDialect {
  /** The operation name a fault plan matches (`model:openai.chat.completions`). */
  readonly operation: string;
  readonly method: 'POST';
  readonly path: string;
  /** `reader`: the scenario's own reader of tool results, tried before the built-in one (`readToolResult`). */
  read(body: unknown, reader?: ToolResultReader): ModelRequestView;
  write(action: ModelAction, body: unknown, ids: IdSource, nowMs: number): unknown;
  /** The answer `write` made, as the API streams it: its server-sent events, in order (`sseFrame`). */
  stream(whole: unknown, body: unknown): string[];
  /** What an answer `write` made says: its text and tool calls. */
  said(whole: unknown): Said;
  /** The answer `whole` rewritten to say what a mistake made of it, in the API's own shape (a refusal, `length`…). */
  mistaken(whole: unknown, said: Mistaken): unknown;
  /** The API's real 400 for a conversation longer than the model's context window. */
  contextLength(body: unknown): { readonly status: number; readonly body: unknown };
}

/**
 * Answers model API requests from a `Model` (a `ScriptedModel`, say). The same conversation
 * always gets the same answer: an SDK's retry or a duplicated delivery re-sends the request,
 * and a deterministic model must not take a second step for it.
 */
export class ModelResponder {
  readonly #answers = new Map<string, Promise<unknown>>();
  readonly #ids = new IdSource();
  readonly #mistakes = new ModelMistakes<ModelDialect>((dialect, body, whole) => this.#sent(dialect, body, whole));
  #start: number | undefined;

  constructor(
    readonly model: Model,
    readonly options: ModelResponderOptions = {},
  ) {}

  route(dialect: ModelDialect): HttpRoute {
    return {
      method: dialect.method,
      path: dialect.path,
      operation: dialect.operation,
      kind: 'model',
      usage: ANSWER_USAGE,
      input: (req) => req.body,
      serve: async (body, ctx) => this.#sent(dialect, body, await this.#whole(dialect, body, ctx)),
      mistake: (fault, body, ctx, draws) =>
        this.#mistakes.make(dialect, fault, body, draws, () => this.#whole(dialect, body, ctx)),
    };
  }

  /** `whole` as the request asked for it (streamed or not), remembered as the route's last answer (a `replayed` mistake's). */
  #sent(dialect: ModelDialect, body: unknown, whole: unknown): unknown {
    this.#mistakes.answered(dialect, whole);
    return asksForStream(body) ? streamReply(dialect.stream(whole, body)) : whole;
  }

  /** The model's whole (unstreamed) answer to the conversation in `body`, decided once per conversation. */
  #whole(dialect: ModelDialect, body: unknown, ctx: ServeContext): Promise<unknown> {
    // Sampling knobs do not change what a scripted model says; the stream flag changes only how it is sent.
    const key = `${dialect.operation}\u0000${canonicalJson(body)}`;
    let answer = this.#answers.get(key);
    if (!answer) {
      this.#start ??= ctx.clock.now();
      // A conversation that carries a call the model got wrong, and the agent's answer to it, is read without
      // them: told of its slip, the model makes the call it meant (`ModelMistakes.corrected`).
      const view = this.#mistakes.corrected(dialect.read(body, this.options.readToolResult));
      answer = this.#decide(view, ctx.clock).then((action) => dialect.write(action, body, this.#ids, ctx.clock.now()));
      this.#answers.set(key, answer);
    }
    return answer;
  }

  /**
   * The model's next action an agent can take. No model API has a turn that says "wait", and an
   * agent written like the docs' examples would read one as its final answer: so a `wait` (a
   * Retry-After, the gap between status queries) is slept out here, on the trial's clock, and
   * the request is answered with what the model does after it.
   */
  async #decide(view: ModelRequestView, clock: Clock): Promise<ModelAction> {
    const start = this.#start ?? 0;
    let messages: readonly Message[] = view.messages;
    let action = await this.model.next({ ...view, now: clock.now() - start });
    while (action.kind === 'wait') {
      await clock.sleep(action.ms);
      messages = [...messages, { role: 'assistant', action }];
      action = await this.model.next({ ...view, messages, now: clock.now() - start });
    }
    return action;
  }
}
