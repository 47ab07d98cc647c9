import type { AnswerGate } from '../../faults/http/AnswerGate.js';
import type { AgentKill } from './AgentKill.js';

/**
 * The served world's gate for an agent in process under `crash.agent`: the kill holds the answer
 * its trigger names, and once it fired, every answer to a request that arrived before the restart
 * began (model calls too) is held for good: the abandoned start's requests never come back, so
 * nothing wakes it to act on the world again.
 */
export class RestartGate implements AnswerGate {
  #restarted = false;
  readonly #restartsOwn = new Set<string>();

  constructor(private readonly kill: AgentKill) {}

  holds(answered: { readonly request: string; readonly tool: string }): boolean {
    return this.kill.holds(answered);
  }

  arrived(request: string): void {
    if (this.#restarted) this.#restartsOwn.add(request);
  }

  abandoned(request: string): boolean {
    return this.kill.fired && !this.#restartsOwn.has(request);
  }

  /** From here on, requests are the restarted agent's. */
  restarted(): void {
    this.#restarted = true;
  }
}
