import { canonicalJson, sha256, type History, type HistoryEvent } from '../../core/index.js';
import { ServiceCodeError } from '../../world/define/defineService.js';
import type { World } from '../../world/World.js';
import type { TrialEnd, TrialRecord } from '../../checks/record.js';
import type { WorldSnapshot } from '../../world/snapshot.js';

/** What a trial did before its worker died or stalled: the history so far and, when it could be taken, the world's state then. */
export interface PartialTrial {
  readonly history: readonly HistoryEvent[];
  readonly snapshot?: WorldSnapshot;
}

/** Who the trial was: its scenario, configuration, index and seed. */
export type TrialName = Pick<TrialRecord, 'scenario' | 'config' | 'trialIndex' | 'seed'>;

/**
 * A finished trial's record: its end (a crash when the world's snapshot failed) recorded last in
 * its history. A lost trial with a `partial` history is judged on what its worker reported
 * before it went, its trial_end after its last event.
 */
export function trialRecord(
  name: TrialName,
  history: History,
  ran: TrialEnd,
  world: { readonly snapshot: WorldSnapshot; readonly failed?: string },
  lost: Extract<TrialEnd, { kind: 'crashed' | 'hung' }> | undefined,
  partial: PartialTrial | undefined,
): TrialRecord {
  const { snapshot: worldSnapshot, failed: snapshotFailed } = world;
  // A service's own snapshot function that throws fails this trial, not the run.
  const end: TrialEnd = snapshotFailed === undefined ? ran : { kind: 'crashed', message: snapshotFailed };
  const message = end.kind === 'crashed' || end.kind === 'hung' || end.kind === 'infra_error' ? end.message : undefined;
  const trialEndEvent = { type: 'trial_end', status: end.kind, ...(message !== undefined && { message }) } as const;
  const survived = lost && partial !== undefined && partial.history.length > 0 ? partial : undefined;
  if (!survived) history.record(trialEndEvent);
  // A lost trial's history is what its worker reported before it went: its trial_end comes after its last event.
  const events = survived
    ? [
        ...survived.history,
        { seq: survived.history.length, t: survived.history.at(-1)?.t ?? 0, ...trialEndEvent } as HistoryEvent,
      ]
    : history.events;

  const snapshot = survived?.snapshot ?? worldSnapshot;
  return {
    scenario: name.scenario,
    config: name.config,
    trialIndex: name.trialIndex,
    seed: name.seed,
    history: events,
    snapshot,
    end,
  };
}

/** The world's final snapshot; when a service's own `snapshot` throws, the ledger alone and why. */
export async function worldSnapshotOf(
  world: World,
): Promise<{ readonly snapshot: WorldSnapshot; readonly failed?: string }> {
  try {
    return { snapshot: await world.snapshotAsync() };
  } catch (error) {
    if (!(error instanceof ServiceCodeError)) throw error;
    const plain = JSON.parse(canonicalJson({ services: {}, ledger: world.ledger.effects })) as Omit<
      WorldSnapshot,
      'hash'
    >;
    return { snapshot: { ...plain, hash: sha256(canonicalJson(plain)) }, failed: error.message };
  }
}
