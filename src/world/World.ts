import { canonicalCopy, FaultlineError, FaultlineErrorCode, sha256, type Clock } from '../core/index.js';
import { ProcessTable } from './command/ProcessTable.js';
import { KvStore } from './KvStore.js';
import { EffectLedger, type Effect } from './ledger.js';
import type { Service } from './Service.js';
import type { WorldSnapshot } from './snapshot.js';
import type { ToolSpec } from './tool.js';

/** The services of one trial and the ledger they share. Fresh for every trial. */
export class World {
  readonly ledger = new EffectLedger();
  /** The process groups command tools started (R19), swept at the trial's end. */
  readonly processes = new ProcessTable();
  /** The agent's key-value checkpoint store: it outlives the agent's crash, not the trial. */
  readonly kv = new KvStore();
  readonly #services = new Map<string, Service>();
  /**
   * `services` and `tools` as last listed, until the next `add`: a trial asks for them several
   * times (wire, executor, checks, each `ctx.peer`), and they were a fresh array each time.
   * Frozen, so a caller that changed one could not change another's.
   */
  #serviceList: readonly Service[] | undefined;
  #toolList: readonly ToolSpec[] | undefined;

  constructor(readonly clock: Clock) {}

  add(service: Service): this {
    this.#services.set(service.name, service);
    this.#serviceList = undefined;
    this.#toolList = undefined;
    return this;
  }

  service<S extends Service = Service>(name: string): S {
    const s = this.#services.get(name);
    if (!s) throw new FaultlineError(FaultlineErrorCode.UnknownService, `no service named "${name}" in this world`);
    return s as S;
  }

  get services(): readonly Service[] {
    return (this.#serviceList ??= Object.freeze([...this.#services.values()]));
  }

  /** Every tool of every service, by name. */
  get tools(): readonly ToolSpec[] {
    if (this.#toolList) return this.#toolList;
    // A loop, not flatMap: each trial's world lists its tools at least once.
    const tools: ToolSpec[] = [];
    for (const service of this.services) for (const tool of service.tools) tools.push(tool);
    return (this.#toolList = Object.freeze(tools));
  }

  snapshot(): WorldSnapshot {
    const services: Record<string, unknown> = {};
    for (const s of this.services) services[s.name] = s.snapshot();
    return snapshotOf(services, this.ledger.effects, this.kv);
  }

  /**
   * The same snapshot, for worlds whose state lives outside memory: awaits each service's
   * `snapshotAsync` where it has one, and the ledger as `effectsAsync` reads it.
   */
  async snapshotAsync(): Promise<WorldSnapshot> {
    const services: Record<string, unknown> = {};
    for (const s of this.services) services[s.name] = s.snapshotAsync ? await s.snapshotAsync() : s.snapshot();
    return snapshotOf(services, await this.effectsAsync(), this.kv);
  }

  /** Every committed effect in seq order; a world whose ledger is a database table reads it there. */
  protected effectsAsync(): Promise<readonly Effect[]> {
    return Promise.resolve(this.ledger.effects);
  }
}

function snapshotOf(services: Record<string, unknown>, ledger: readonly Effect[], kv: KvStore): WorldSnapshot {
  // Plain data, detached from live state, as a round trip through canonical JSON gives it (in one walk).
  // The store only when written: a trial that never used it keeps the snapshot (and its hash) it always had.
  const { text, copy } = canonicalCopy(kv.size === 0 ? { services, ledger } : { services, ledger, kv: kv.entries() });
  const plain = copy as { services: Record<string, unknown>; ledger: WorldSnapshot['ledger'] };
  // Object.assign, not `{ ...plain, hash }`: V8 (Node 20) makes a new map for a key added after a leading spread (≈ 1 µs), every trial.
  return Object.assign({}, plain, { hash: sha256(text) });
}
