import type { ToolResult } from '../runtime/result.js';
import type { Rng } from '../core/index.js';
import { behaviourPicker, describeBehaviour, type Behaviour, type BehaviourSpec } from './behaviours.js';
import type { Message, Model, ModelAction, ModelInput } from './model.js';
import { playScript, type FinalAction, type Script } from './playScript.js';
import { safeParseOnce } from '../core/parseOnce.js';
import { ScriptPlanSchema, type ScriptPlan, type ScriptPlanInput } from './script.js';

export interface ScriptedModelOptions {
  /**
   * `careful` (the default) follows the rulebook; the others are deliberate bugs. A mixture
   * (`{ careful: 0.9, 'ignores-retry-after': 0.1 }`) draws one per decision from `rng`.
   */
  readonly behaviour?: BehaviourSpec;
  /** The stream a behaviour mixture draws from (the trial's `behaviour` fork); unused by a single behaviour. */
  readonly rng?: Rng;
  readonly name?: string;
}

/**
 * A deterministic model that follows a plan and reacts to structured feedback the way a
 * careful model would (or, with a naive `behaviour`, the way a careless one does).
 * Reusable across trials: a conversation without an assistant message starts the plan afresh.
 *
 * @example
 * const model = new ScriptedModel({ steps: [{ tool: 'create_order', input: { ref: 'ref-1' }, subject: 'orders:ref-1' }] });
 */
export class ScriptedModel implements Model {
  readonly name: string;
  readonly behaviour: BehaviourSpec;
  readonly plan: ScriptPlan;
  readonly #pick: () => Behaviour;
  #script: Script<FinalAction> | undefined;
  #lastFinal: FinalAction | undefined;
  /** How long the conversation was when the final answer was given: the same request again is a resend. */
  #finalAt: number | undefined;

  /** Validates the plan (throws a ZodError on a bad one: scenario files are checked at load). */
  constructor(plan: ScriptPlanInput, options: ScriptedModelOptions = {}) {
    const parsed = safeParseOnce(ScriptPlanSchema, plan);
    if (!parsed.success) throw parsed.error;
    this.plan = parsed.data;
    this.behaviour = options.behaviour ?? 'careful';
    this.#pick = behaviourPicker(this.behaviour, options.rng);
    this.name = options.name ?? `scripted:${describeBehaviour(this.behaviour)}`;
  }

  // async so a broken placeholder surfaces as a rejection, as any model failure would.
  async next(input: ModelInput): Promise<ModelAction> {
    const fresh = !input.messages.some((m) => m.role === 'assistant');
    if (fresh) this.#script = playScript(this.plan, this.#pick);
    const script = this.#script;
    // The same request again after the final answer (its answer was cut, and the agent sent it
    // anew) is a legitimate recovery: it gets the same final answer, not an error no fault injected.
    if (!script && this.#lastFinal !== undefined && input.messages.length === this.#finalAt) return this.#lastFinal;
    if (!script) throw new Error(`${this.name}: asked for another turn after its final answer`);
    const step = script.next(fresh ? [] : repliesToLastAction(input.messages));
    if (step.done) {
      this.#script = undefined;
      this.#lastFinal = step.value;
      this.#finalAt = input.messages.length;
    }
    return step.value;
  }

  /** The final answer it gave last, if any: what an agent on an SDK may pass on as its own claims. */
  get lastFinal(): FinalAction | undefined {
    return this.#lastFinal;
  }
}

/** The tool results that came back after the model's last action, in call order. */
function repliesToLastAction(messages: readonly Message[]): ToolResult[] {
  const replies: ToolResult[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m || m.role === 'assistant') break;
    if (m.role === 'tool') replies.unshift(m.result);
  }
  return replies;
}
