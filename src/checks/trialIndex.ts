import { canonicalJson, type EventOf, type HistoryEvent, type HistoryEventType } from '../core/index.js';
import type { Effect } from '../world/ledger.js';
import { requestLoad } from './requestLoad.js';
import type { TrialRecord } from './record.js';
import { WireView } from './WireView.js';
import { push } from './push.js';

type ToolCallEvent = EventOf<'tool_call'>;
type AttemptEvent = EventOf<'attempt'>;

/** The input fields that hold a business key, in the order the checkers trust them. */
export const BUSINESS_KEY_FIELDS = ['clientReference', 'paymentReference', 'messageId'] as const;

/** The execution layer's own reconciliation tool (R21, R27). */
export const STATUS_TOOL = 'query_operation_status';

/** `service:businessKey`, as claims and the ledger name a subject. */
export const subjectOf = (service: string, key: string): string => `${service}:${key}`;

/** Splits a claim's subject at its first colon; `undefined` when it has none. */
export function parseSubject(subject: string): { service: string; key: string } | undefined {
  const i = subject.indexOf(':');
  if (i <= 0) return undefined;
  return { service: subject.slice(0, i), key: subject.slice(i + 1) };
}

/** The business key named by a tool input, or `undefined` when the input carries none. */
export function businessKeyOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const record = input as Readonly<Record<string, unknown>>;
  for (const field of BUSINESS_KEY_FIELDS) {
    const v = record[field];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

const NONE: readonly never[] = Object.freeze([]);

/** The last item of `items` per key (a later event of one key replaces an earlier one). */
function byKey<K, V>(items: readonly V[], key: (item: V) => K): Map<K, V> {
  const map = new Map<K, V>();
  for (const item of items) map.set(key(item), item);
  return map;
}

/** `items` grouped by key, each group in the items' order (frozen: the index shares them). */
function grouped<K, V>(items: readonly V[], key: (item: V) => K): Map<K, readonly V[]> {
  const map = new Map<K, V[]>();
  for (const item of items) push(map, key(item), item);
  for (const list of map.values()) Object.freeze(list);
  return map;
}

/**
 * The joins every checker needs over one trial: calls, their attempts and requests, the
 * deliveries and ledger effects of each request, the events of each type. Built once per trial
 * (`TrialIndex.of`) in one pass over the history, read-only after; the costlier views (the
 * traffic as a `WireView`, canonical inputs, the load per request) are built on first use and
 * shared by every checker and the trial's stats.
 */
export class TrialIndex {
  // The last record's index, not a WeakMap of every record's: V8 keeps a WeakMap's entries alive
  // through young-generation collections, so each trial's index and history outlived the trial
  // into the old generation (15 % of the young generation survived each scavenge; 0 % with this).
  // A trial is judged in one synchronous stretch, so the checkers and the stats of one record
  // all meet it here; two records judged in turn each build their own, which is correct, only slower.
  static #last: { readonly record: TrialRecord; readonly index: TrialIndex } | undefined;

  /** The index of `record`, built on first use and shared by every checker that judges it. */
  static of(record: TrialRecord): TrialIndex {
    const last = TrialIndex.#last;
    if (last !== undefined && last.record === record) return last.index;
    const index = new TrialIndex(record.history, record.snapshot.ledger);
    TrialIndex.#last = { record, index };
    return index;
  }

  readonly events: readonly HistoryEvent[];
  readonly ledger: readonly Effect[];
  readonly #byType = new Map<HistoryEventType, HistoryEvent[]>();
  // Each table below is built from its events on first use: a checker that never asks (most
  // trials have no duplicate to trace, no claim to judge) never pays for it.
  #calls: Map<string, ToolCallEvent> | undefined;
  #callList: readonly ToolCallEvent[] | undefined;
  #attemptsByCall: Map<string, readonly AttemptEvent[]> | undefined;
  #attemptByRequest: Map<string, AttemptEvent> | undefined;
  #attemptById: Map<string, AttemptEvent> | undefined;
  #deliveriesByRequest: Map<string, readonly EventOf<'delivery'>[]> | undefined;
  #httpByRequest: Map<string, EventOf<'http_request'>> | undefined;
  #effectsByRequest: Map<string, readonly Effect[]> | undefined;
  #effectsByServiceKey: Map<string, Map<string, readonly Effect[]>> | undefined;
  #effectEventBySeq: Map<number, EventOf<'effect'>> | undefined;
  #outcomesByCall: Map<string, readonly EventOf<'outcome'>[]> | undefined;
  #operationsByCall: Map<string, readonly EventOf<'operation'>[]> | undefined;
  readonly #inputText = new Map<string, string>();
  // Made on first use, as the tables above: a trial whose calls each use their own tool never numbers an operation.
  #operationIds: Map<string, number> | undefined;
  #callOperation: Map<string, number> | undefined;
  #wire: WireView | undefined;
  #load: ReadonlyMap<string, number> | undefined;

  /** Over a history and the ledger of its final state (`of` shares one per trial record). */
  constructor(history: readonly HistoryEvent[], ledger: readonly Effect[]) {
    this.events = history;
    this.ledger = ledger;
    for (const e of history) push(this.#byType, e.type, e);
    // Every list the index hands out is shared by all its readers: frozen, so no checker can change what another one reads.
    for (const list of this.#byType.values()) Object.freeze(list);
  }

  get #callTable(): Map<string, ToolCallEvent> {
    return (this.#calls ??= byKey(this.eventsOf('tool_call'), (e) => e.call));
  }

  get #attemptTable(): Map<string, readonly AttemptEvent[]> {
    return (this.#attemptsByCall ??= grouped(this.eventsOf('attempt'), (e) => e.call));
  }

  /** The history's events of one type, in history order (what `eventsOf` filters out of it). */
  eventsOf<T extends HistoryEventType>(type: T): readonly EventOf<T>[] {
    return (this.#byType.get(type) as EventOf<T>[] | undefined) ?? NONE;
  }

  /** The trial's HTTP traffic as logical calls, one view for every checker. */
  get wire(): WireView {
    return (this.#wire ??= new WireView(this.events, this.eventsOf('http_request')));
  }

  /** Sends and duplicate copies per request (`requestLoad`). */
  get load(): ReadonlyMap<string, number> {
    return (this.#load ??= requestLoad(this.eventsOf('response'), this.eventsOf('delivery')));
  }

  get calls(): readonly ToolCallEvent[] {
    // One list for every checker that asks (budget, amplification, honesty…), not a copy each.
    return (this.#callList ??= Object.freeze([...this.#callTable.values()]));
  }

  call(call: string): ToolCallEvent | undefined {
    return this.#callTable.get(call);
  }

  /** The call's canonical input text, so equal inputs compare equal whatever their key order. */
  inputText(call: string): string | undefined {
    let text = this.#inputText.get(call);
    if (text === undefined) {
      const event = this.#callTable.get(call);
      if (event === undefined) return undefined;
      text = canonicalJson(event.input) ?? 'undefined';
      this.#inputText.set(call, text);
    }
    return text;
  }

  /**
   * A tool call's logical operation (R10): one number for every call of one tool with one
   * canonical input, numbered from 0 in the order they are first asked for. Amplification, the
   * stats' operation count and a crowd's sends per operation all group calls by it: the key
   * `tool\0input` is printed and hashed once per call, not once per reader. A call id used twice
   * keeps only its last event in the index; the other event's input is printed here each time.
   */
  operationOf(e: ToolCallEvent): number {
    const own = this.#callTable.get(e.call) === e;
    const byCall = (this.#callOperation ??= new Map());
    if (own) {
      const known = byCall.get(e.call);
      if (known !== undefined) return known;
    }
    const ids = (this.#operationIds ??= new Map());
    const key = `${e.tool}\u0000${own ? this.inputText(e.call)! : canonicalJson(e.input)}`;
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    if (own) byCall.set(e.call, id);
    return id;
  }

  /** Every attempt of a call, status queries included, in history order. */
  attemptsOf(call: string): readonly AttemptEvent[] {
    return this.#attemptTable.get(call) ?? NONE;
  }

  /** The attempts that sent the call itself (not status queries). */
  callAttemptsOf(call: string): readonly AttemptEvent[] {
    const all = this.attemptsOf(call);
    // Most calls were never reconciled: their attempts are the list itself, no copy. A loop, not
    // `every` with a closure: budget and amplification ask for each of a crowd's thousand calls.
    for (let i = 0; i < all.length; i++) if (all[i]!.purpose !== 'call') return all.filter((a) => a.purpose === 'call');
    return all;
  }

  attemptFor(request: string): AttemptEvent | undefined {
    return (this.#attemptByRequest ??= byKey(this.eventsOf('attempt'), (e) => e.request)).get(request);
  }

  /** The request as it arrived over HTTP (an agent's own client, a served or MCP request), if it did. */
  httpRequest(request: string): EventOf<'http_request'> | undefined {
    return (this.#httpByRequest ??= byKey(this.eventsOf('http_request'), (e) => e.request)).get(request);
  }

  attempt(call: string, attempt: number): AttemptEvent | undefined {
    return (this.#attemptById ??= byKey(this.eventsOf('attempt'), (e) => `${e.call}#${e.attempt}`)).get(
      `${call}#${attempt}`,
    );
  }

  deliveriesOf(request: string): readonly EventOf<'delivery'>[] {
    return (this.#deliveriesByRequest ??= grouped(this.eventsOf('delivery'), (e) => e.request)).get(request) ?? NONE;
  }

  effectsOfRequest(request: string): readonly Effect[] {
    return (this.#effectsByRequest ??= grouped(this.ledger, (e) => e.request)).get(request) ?? NONE;
  }

  /** The ledger effects committed by any request of the call. */
  effectsOfCall(call: string): readonly Effect[] {
    return this.attemptsOf(call).flatMap((a) => this.effectsOfRequest(a.request));
  }

  effectEvent(ledgerSeq: number): EventOf<'effect'> | undefined {
    return (this.#effectEventBySeq ??= byKey(this.eventsOf('effect'), (e) => e.ledgerSeq)).get(ledgerSeq);
  }

  outcomesOf(call: string): readonly EventOf<'outcome'>[] {
    return (this.#outcomesByCall ??= grouped(this.eventsOf('outcome'), (e) => e.call)).get(call) ?? NONE;
  }

  operationsOf(call: string): readonly EventOf<'operation'>[] {
    return (this.#operationsByCall ??= grouped(this.eventsOf('operation'), (e) => e.call)).get(call) ?? NONE;
  }

  /**
   * The call's business key: as the execution layer read it from the contract's field, else
   * from the input fields the built-in services use, else from its operation record.
   */
  businessKeyOf(call: string): string | undefined {
    const event = this.#callTable.get(call);
    if (event?.businessKey !== undefined) return event.businessKey;
    const fromInput = businessKeyOf(event?.input);
    if (fromInput !== undefined) return fromInput;
    return this.operationsOf(call).find((o) => o.businessKey !== undefined)?.businessKey;
  }

  /** The effects of the subject `service:key` in the ledger, in commit order. */
  effectsOfSubject(subject: string): readonly Effect[] {
    const parsed = parseSubject(subject);
    if (!parsed) return NONE;
    // By service, then key: honesty asks once per claim, and a crowd's claims each filtering the whole ledger was quadratic.
    // Two levels, not one `service:key` text: a service name may hold a colon, and the claim's first colon splits it.
    this.#effectsByServiceKey ??= new Map(
      [...grouped(this.ledger, (e) => e.service)].map(([service, effects]) => [
        service,
        grouped(effects, (e) => e.key),
      ]),
    );
    return this.#effectsByServiceKey.get(parsed.service)?.get(parsed.key) ?? NONE;
  }
}
