import type { FaultPlan, Heal } from '../faults/plan.js';
import type { Network } from '../faults/network.js';
import type { ScriptPlan } from '../model/script.js';
import type { ServiceRef } from '../world/createWorld.js';
import type { WorldConfig } from '../world/WorldConfig.js';
import type { ScenarioCrash } from './agentCrash.js';

/**
 * What the load-time checks read of a parsed scenario. Stated here rather than imported as
 * `Scenario`: scenario.ts runs these checks, so they cannot import it back (an import cycle).
 * Every `Scenario` is one.
 */
export interface CheckedScenario {
  readonly world: WorldConfig;
  readonly services?: readonly ServiceRef[] | undefined;
  readonly faults: FaultPlan;
  readonly heal?: Heal | undefined;
  readonly crash?: ScenarioCrash | undefined;
  readonly recovery?: object | undefined;
  readonly checks?: readonly string[] | undefined;
  readonly network?: Network | undefined;
  readonly agent:
    | { readonly kind: 'scripted'; readonly plan: ScriptPlan }
    | { readonly kind: 'command'; readonly cwd?: string | undefined }
    | { readonly kind: 'http' | 'function' };
  readonly agents: number;
  readonly http?: object | undefined;
  readonly model?: { readonly api: 'openai' | 'anthropic'; readonly plan?: ScriptPlan | undefined } | undefined;
  readonly goal: { readonly state?: Readonly<Record<string, unknown>> | undefined };
  readonly client?: { readonly tools?: readonly string[] | undefined } | undefined;
}
