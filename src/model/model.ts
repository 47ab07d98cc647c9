import type { AgentOutcomeKind, Claim, ToolContract } from '../core/index.js';
import type { ToolResult } from '../runtime/result.js';

/** One proposed tool call. `id` is the model's own (as in OpenAI/Claude tool_use ids). */
export interface ProposedCall {
  readonly id?: string;
  readonly tool: string;
  readonly input: unknown;
}

/** What the model decides on one turn. */
export type ModelAction =
  | { readonly kind: 'tool_calls'; readonly calls: readonly ProposedCall[] }
  /** Sleep on the trial clock before the next turn (e.g. to honour a Retry-After the model was told of). */
  | { readonly kind: 'wait'; readonly ms: number }
  | {
      readonly kind: 'final';
      readonly outcome: AgentOutcomeKind;
      readonly message: string;
      readonly claims: readonly Claim[];
    };
export type ModelActionKind = ModelAction['kind'];

/** The conversation as the loop keeps it. Tool results carry both the structured result and its rendered text. */
export type Message =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly action: ModelAction }
  | {
      readonly role: 'tool';
      readonly call: string;
      readonly tool: string;
      readonly result: ToolResult;
      readonly text: string;
    };

export interface ModelInput {
  readonly task: string;
  readonly tools: readonly ToolContract[];
  readonly messages: readonly Message[];
  /** Virtual milliseconds since the trial began. */
  readonly now: number;
}

/** A model: scripted, replayed, an LLM adapter, or your own. */
export interface Model {
  readonly name: string;
  next(input: ModelInput): Promise<ModelAction>;
}
