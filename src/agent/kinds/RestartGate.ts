import { AsyncLocalStorage } from 'node:async_hooks';
import type { AnswerGate } from '../../faults/http/AnswerGate.js';
import type { AgentKill } from './AgentKill.js';

/**
 * The served world's gate for an agent in process under `crash.agent`: the kill holds the answer
 * its trigger names, and once it fired, every request of the abandoned start is held for good,
 * model calls too: an answer it was waiting for never comes back, and what it sends later (a
 * continuation no answer wakes: setImmediate, file I/O) never reaches the world. A request is the
 * start's that sent it, however it got there: each start runs in an async context of its own,
 * which Node carries through promises, timers and I/O callbacks; the time it arrives says nothing.
 */
export class RestartGate implements AnswerGate {
  readonly #sender = new AsyncLocalStorage<number>();
  #current = 0;
  readonly #currentsOwn = new Set<string>();

  constructor(private readonly kill: AgentKill) {}

  /** Runs start `restart` of the agent: from here on, only what it sends is the agent's. */
  start<T>(restart: number, body: () => T): T {
    this.#current = restart;
    return this.#sender.run(restart, body);
  }

  holds(answered: { readonly request: string; readonly tool: string }): boolean {
    return this.kill.holds(answered);
  }

  /** Whether the request arriving now was sent by a start the kill abandoned: it is then refused before it reaches the world. */
  fromAbandoned(): boolean {
    return this.kill.fired && this.#sender.getStore() !== this.#current;
  }

  arrived(request: string): void {
    if (this.#current > 0 && this.#sender.getStore() === this.#current) this.#currentsOwn.add(request);
  }

  abandoned(request: string): boolean {
    return this.kill.fired && !this.#currentsOwn.has(request);
  }
}
