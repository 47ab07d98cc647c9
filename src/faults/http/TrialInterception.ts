import { holdOn } from '../../core/index.js';
import { ArrivalHolds } from './ArrivalHolds.js';
import { ExchangeTracker } from './ExchangeTracker.js';
import type { HttpFaults } from './HttpFaults.js';

/**
 * What the msw and nock adapters share for one trial: the signals that tell the engine a client gave up
 * (`tracker`), the holds on each arrival (`arrivals`, wrapped around the clients once the interceptor is in place),
 * and the first steps of closing, taken once.
 */
export class TrialInterception {
  readonly tracker = new ExchangeTracker();
  readonly arrivals: ArrivalHolds;
  readonly #faults: HttpFaults;
  #unwrap: (() => void) | undefined;
  #open = true;

  constructor(faults: HttpFaults) {
    this.#faults = faults;
    this.arrivals = new ArrivalHolds(holdOn(faults.clock));
  }

  /** Wraps the clients so each arrival is held on the trial's clock: once the interceptor is listening. */
  install(): void {
    this.#unwrap = this.arrivals.install();
  }

  /**
   * Ends the open exchanges as lost and unwraps the clients. Returns false when the trial was closed already: the
   * adapter then has nothing more to tear down either.
   */
  close(): boolean {
    if (!this.#open) return false;
    this.#open = false;
    this.#faults.close();
    this.tracker.closeAll();
    this.#unwrap?.();
    return true;
  }
}
