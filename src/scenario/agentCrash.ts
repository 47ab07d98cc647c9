import { z } from 'zod';

/**
 * When the user's own agent dies (R22, R25), exactly one of: `afterEffectOf` a tool (its `nth`
 * committed effect; its answer is held, then dropped: the service did the work, the agent never
 * heard), `afterCall` (the agent's n-th tool request, its answer dropped likewise), or `atMs`
 * ms after the trial's start. One object with a refinement rather than a union, so that a bad
 * value is named at its own path (`crash.agent.nth`), not as "no option matched".
 */
export const AgentCrashTriggerSchema = z
  .object({
    /** The tool whose effect commits just before the agent dies. */
    afterEffectOf: z.string().min(1).optional(),
    /** With `afterEffectOf`: which of that tool's committed effects (default 1, the first). */
    nth: z.number().int().positive().optional(),
    /** The agent dies as its n-th tool request (1: the first) is answered; the answer is dropped. */
    afterCall: z.number().int().positive().optional(),
    /** The agent dies this many ms after the trial's start: real ms for a command agent, virtual ms for a function or http agent. */
    atMs: z.number().int().nonnegative().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const set = (['afterEffectOf', 'afterCall', 'atMs'] as const).filter((k) => t[k] !== undefined);
    if (set.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message:
          `expected exactly one trigger, { afterEffectOf: <tool>, nth?: <n> }, { afterCall: <n> } or { atMs: <ms> }; ` +
          `got ${set.length === 0 ? 'none' : set.join(' and ')}`,
      });
    if (t.nth !== undefined && t.afterEffectOf === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['nth'],
        message: 'nth counts the effects of afterEffectOf, which is not set',
      });
  });
export type AgentCrashTrigger = z.infer<typeof AgentCrashTriggerSchema>;

/**
 * A scenario's `crash`: whose process dies, and when. `agent` is the user's own agent (a command
 * agent's process tree gets SIGKILL, a function or http agent's run is abandoned; it is then started
 * again with the same task, working folder, checkpoint store and world). Beside it, the reference
 * runtime's own crash stays a trial option.
 */
export const ScenarioCrashSchema = z.object({ agent: AgentCrashTriggerSchema }).strict();
export type ScenarioCrash = z.infer<typeof ScenarioCrashSchema>;

/**
 * The agent kinds `crash.agent` can kill and start again: a command agent (its process tree), a
 * function or http agent (its run abandoned, a fresh module instance started). One list, so that
 * loading refuses, and explore and sweep draw crash points for, the same kinds.
 */
export const CRASHABLE_AGENT_KINDS: readonly string[] = ['command', 'function', 'http'];

/**
 * Whether a scenario's agent (of this kind, `agents` of it) can be crashed by `crash.agent`: which
 * one of a crowd of in-process agents would die is not built, so a crowd of them cannot.
 */
export const canCrashAgent = (kind: string, agents = 1): boolean =>
  CRASHABLE_AGENT_KINDS.includes(kind) && (kind === 'command' || agents <= 1);

/** Why a scenario's agent cannot be crashed, for the flags that would draw or sweep crash points. */
export const whyNotCrashable = (kind: string, agents: number): string =>
  CRASHABLE_AGENT_KINDS.includes(kind) ? `agent.kind is "${kind}" with agents: ${agents}` : `agent.kind is "${kind}"`;

/** The agents `crash.agent` can crash, in words. */
export const CRASHABLE_TEXT = 'a command agent, or one function or http agent';

/** The trigger in a line, for the history and reports: `after the 1st effect of create_order`. */
export function triggerText(t: AgentCrashTrigger): string {
  if (t.afterEffectOf !== undefined) return `after effect #${t.nth ?? 1} of ${t.afterEffectOf}`;
  if (t.afterCall !== undefined) return `after tool request #${t.afterCall}`;
  return `at t=${t.atMs}ms`;
}
