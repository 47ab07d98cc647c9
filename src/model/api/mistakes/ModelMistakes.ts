import { canonicalJson } from '../../../core/index.js';
import type { ModelMistake } from '../../../faults/fault.js';
import { reply } from '../../../faults/http/HttpAnswer.js';
import type { MistakeAnswer, MistakeDraws } from '../../../faults/http/HttpRoute.js';
import type { Message } from '../../model.js';
import { drawMistake } from './drawMistake.js';
import { offeredTools, saidRecord, type Mistaken, type Said } from './said.js';

/** What a mistake needs of a model API's dialect (`ModelDialect` has it). */
export interface MistakeDialect {
  readonly operation: string;
  said(whole: unknown): Said;
  mistaken(whole: unknown, said: Mistaken): unknown;
  contextLength(body: unknown): { readonly status: number; readonly body: unknown };
}

/** How the responder sends a whole answer (streamed when asked), remembering it as the route's last. */
type Send<D> = (dialect: D, body: unknown, whole: unknown) => unknown;

/**
 * A call the model got wrong, as the conversation carries it back: its id and tool name. Not its
 * input: an SDK may hand the agent a repaired one (the Anthropic SDK's stream parses a cut input
 * leniently), and the stand-in's own calls get fresh ids, so an id is never the right call's too.
 */
const callKey = (id: string, name: string): string => `${id}\u0000${name}`;

/**
 * The stand-in model's own mistakes on its API routes (issue 45): it answers as it would have,
 * then makes that answer wrong the way the fault says; it keeps each route's last answer for a
 * `replayed` one, and remembers the calls it got wrong, so that told of a slip (the agent's error
 * fed back as the call's result) it makes the call it meant, as a model does when corrected.
 */
export class ModelMistakes<D extends MistakeDialect> {
  readonly #last = new Map<string, unknown>();
  readonly #wrong = new Set<string>();

  constructor(readonly send: Send<D>) {}

  /** `whole` was sent on `dialect`'s route: a later `replayed` answers it again. */
  answered(dialect: D, whole: unknown): void {
    this.#last.set(dialect.operation, whole);
  }

  async make(
    dialect: D,
    fault: ModelMistake,
    body: unknown,
    draws: MistakeDraws,
    whole: () => Promise<unknown>,
  ): Promise<MistakeAnswer> {
    const real = await whole();
    const held = dialect.said(real);
    if (fault.kind === 'context_length') {
      const error = dialect.contextLength(body);
      return { kind: 'told', answer: reply(error.status, error.body), held: saidRecord(held), answered: error };
    }
    if (fault.kind === 'replayed') {
      const previous = this.#last.get(dialect.operation);
      if (previous === undefined) return { kind: 'none' };
      const again = dialect.said(previous);
      if (canonicalJson(again) === canonicalJson(held)) return { kind: 'none' };
      return {
        kind: 'told',
        answer: this.send(dialect, body, previous),
        held: saidRecord(held),
        answered: saidRecord(again),
      };
    }
    const made = drawMistake(fault, held, offeredTools(body), draws);
    if (made === undefined) return { kind: 'none' };
    this.#remember(held, made);
    return {
      kind: 'told',
      answer: this.send(dialect, body, dialect.mistaken(real, made)),
      held: saidRecord(held),
      answered: saidRecord(made),
    };
  }

  /** The calls of `made` that differ from what the model meant (`held`). */
  #remember(held: Said, made: Said): void {
    for (const c of made.calls) {
      const meant = held.calls.find((h) => h.id === c.id);
      if (meant && meant.name === c.name && meant.arguments === c.arguments) continue;
      this.#wrong.add(callKey(c.id, c.name));
    }
  }

  /**
   * The conversation without the calls the model got wrong and the agent's answers to them: what
   * the model sees once told of its slip. The same conversation when it carries none.
   */
  corrected<V extends { readonly messages: readonly Message[] }>(view: V): V {
    if (this.#wrong.size === 0) return view;
    const messages: Message[] = [];
    let dropped = new Set<string>();
    for (const m of view.messages) {
      if (m.role === 'assistant' && m.action.kind === 'tool_calls') {
        const wrong = m.action.calls.filter((c) => this.#wrong.has(callKey(c.id ?? '', c.tool)));
        dropped = new Set(wrong.map((c) => c.id ?? ''));
        const kept = m.action.calls.filter((c) => !wrong.includes(c));
        if (kept.length > 0) messages.push(wrong.length === 0 ? m : { ...m, action: { ...m.action, calls: kept } });
        continue;
      }
      if (m.role === 'tool' && dropped.has(m.call)) continue;
      if (m.role === 'assistant') dropped = new Set();
      messages.push(m);
    }
    return messages.length === view.messages.length ? view : { ...view, messages };
  }
}
