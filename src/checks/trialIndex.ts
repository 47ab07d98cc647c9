import { canonicalJson, type EventOf, type HistoryEvent, type HistoryEventType } from '../core/index.js';
import type { Effect } from '../world/ledger.js';
import { requestLoad } from './requestLoad.js';
import type { TrialRecord } from './record.js';
import { WireView } from './WireView.js';

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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * The joins every checker needs over one trial: calls, their attempts and requests, the
 * deliveries and ledger effects of each request, the events of each type. Built once per trial
 * (`TrialIndex.of`) in one pass over the history, read-only after; the costlier views (the
 * traffic as a `WireView`, canonical inputs, the load per request) are built on first use and
 * shared by every checker and the trial's stats.
 */
export class TrialIndex {
  static readonly #built = new WeakMap<TrialRecord, TrialIndex>();

  /** The index of `record`, built on first use and shared by every checker that judges it. */
  static of(record: TrialRecord): TrialIndex {
    let index = TrialIndex.#built.get(record);
    if (index === undefined) {
      index = new TrialIndex(record);
      TrialIndex.#built.set(record, index);
    }
    return index;
  }

  readonly events: readonly HistoryEvent[];
  readonly ledger: readonly Effect[];
  readonly #calls = new Map<string, ToolCallEvent>();
  readonly #attemptsByCall = new Map<string, AttemptEvent[]>();
  readonly #attemptByRequest = new Map<string, AttemptEvent>();
  readonly #attemptById = new Map<string, AttemptEvent>();
  readonly #deliveriesByRequest = new Map<string, EventOf<'delivery'>[]>();
  readonly #httpByRequest = new Map<string, EventOf<'http_request'>>();
  readonly #effectsByRequest = new Map<string, Effect[]>();
  readonly #effectEventBySeq = new Map<number, EventOf<'effect'>>();
  readonly #outcomesByCall = new Map<string, EventOf<'outcome'>[]>();
  readonly #operationsByCall = new Map<string, EventOf<'operation'>[]>();
  readonly #inputText = new Map<string, string>();
  readonly #byType = new Map<HistoryEventType, HistoryEvent[]>();
  #wire: WireView | undefined;
  #load: ReadonlyMap<string, number> | undefined;

  constructor(record: TrialRecord) {
    this.events = record.history;
    this.ledger = record.snapshot.ledger;
    for (const e of record.history) {
      push(this.#byType, e.type, e);
      switch (e.type) {
        case 'tool_call':
          this.#calls.set(e.call, e);
          break;
        case 'attempt':
          push(this.#attemptsByCall, e.call, e);
          this.#attemptByRequest.set(e.request, e);
          this.#attemptById.set(`${e.call}#${e.attempt}`, e);
          break;
        case 'delivery':
          push(this.#deliveriesByRequest, e.request, e);
          break;
        case 'http_request':
          this.#httpByRequest.set(e.request, e);
          break;
        case 'effect':
          this.#effectEventBySeq.set(e.ledgerSeq, e);
          break;
        case 'outcome':
          push(this.#outcomesByCall, e.call, e);
          break;
        case 'operation':
          push(this.#operationsByCall, e.call, e);
          break;
        default:
          break;
      }
    }
    for (const effect of record.snapshot.ledger) push(this.#effectsByRequest, effect.request, effect);
  }

  /** The history's events of one type, in history order (what `eventsOf` filters out of it). */
  eventsOf<T extends HistoryEventType>(type: T): readonly EventOf<T>[] {
    return (this.#byType.get(type) as EventOf<T>[] | undefined) ?? NONE;
  }

  /** The trial's HTTP traffic as logical calls, one view for every checker. */
  get wire(): WireView {
    return (this.#wire ??= new WireView(this.events));
  }

  /** Sends and duplicate copies per request (`requestLoad`). */
  get load(): ReadonlyMap<string, number> {
    return (this.#load ??= requestLoad(this.events));
  }

  get calls(): readonly ToolCallEvent[] {
    return [...this.#calls.values()];
  }

  call(call: string): ToolCallEvent | undefined {
    return this.#calls.get(call);
  }

  /** The call's canonical input text, so equal inputs compare equal whatever their key order. */
  inputText(call: string): string | undefined {
    let text = this.#inputText.get(call);
    if (text === undefined) {
      const event = this.#calls.get(call);
      if (event === undefined) return undefined;
      text = canonicalJson(event.input) ?? 'undefined';
      this.#inputText.set(call, text);
    }
    return text;
  }

  /** Every attempt of a call, status queries included, in history order. */
  attemptsOf(call: string): readonly AttemptEvent[] {
    return this.#attemptsByCall.get(call) ?? [];
  }

  /** The attempts that sent the call itself (not status queries). */
  callAttemptsOf(call: string): readonly AttemptEvent[] {
    return this.attemptsOf(call).filter((a) => a.purpose === 'call');
  }

  attemptFor(request: string): AttemptEvent | undefined {
    return this.#attemptByRequest.get(request);
  }

  /** The request as it arrived over HTTP (an agent's own client, a served or MCP request), if it did. */
  httpRequest(request: string): EventOf<'http_request'> | undefined {
    return this.#httpByRequest.get(request);
  }

  attempt(call: string, attempt: number): AttemptEvent | undefined {
    return this.#attemptById.get(`${call}#${attempt}`);
  }

  deliveriesOf(request: string): readonly EventOf<'delivery'>[] {
    return this.#deliveriesByRequest.get(request) ?? [];
  }

  effectsOfRequest(request: string): readonly Effect[] {
    return this.#effectsByRequest.get(request) ?? [];
  }

  /** The ledger effects committed by any request of the call. */
  effectsOfCall(call: string): readonly Effect[] {
    return this.attemptsOf(call).flatMap((a) => this.effectsOfRequest(a.request));
  }

  effectEvent(ledgerSeq: number): EventOf<'effect'> | undefined {
    return this.#effectEventBySeq.get(ledgerSeq);
  }

  outcomesOf(call: string): readonly EventOf<'outcome'>[] {
    return this.#outcomesByCall.get(call) ?? [];
  }

  operationsOf(call: string): readonly EventOf<'operation'>[] {
    return this.#operationsByCall.get(call) ?? [];
  }

  /**
   * The call's business key: as the execution layer read it from the contract's field, else
   * from the input fields the built-in services use, else from its operation record.
   */
  businessKeyOf(call: string): string | undefined {
    const event = this.#calls.get(call);
    if (event?.businessKey !== undefined) return event.businessKey;
    const fromInput = businessKeyOf(event?.input);
    if (fromInput !== undefined) return fromInput;
    return this.operationsOf(call).find((o) => o.businessKey !== undefined)?.businessKey;
  }

  /** The effects of the subject `service:key` in the ledger, in commit order. */
  effectsOfSubject(subject: string): readonly Effect[] {
    const parsed = parseSubject(subject);
    if (!parsed) return [];
    return this.ledger.filter((e) => e.service === parsed.service && e.key === parsed.key);
  }
}
