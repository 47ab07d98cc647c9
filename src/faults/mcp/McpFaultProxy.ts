import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  History,
  RealClock,
  Rng,
  type CallResultKind,
  type Clock,
  type ErrorData,
  type Risk,
} from '../../core/index.js';
import type { Fault, FaultOf } from '../fault.js';
import { faultError, serverError, type RefusalFault } from '../faultError.js';
import { pickRule } from '../match.js';
import type { FaultPlan } from '../plan.js';
import { cancelledId, isRequest, isResponse, type Id, type Request, type Response } from './jsonRpc.js';
import type { ClientSaw, McpProxyRecord, ProxiedCall } from './ProxiedCall.js';
import { ToolRisks } from './ToolRisks.js';
import { answerOf, errorOf, REFUSAL_KINDS, toolError, type Answer } from './toolError.js';

export interface McpFaultProxyOptions {
  /** Towards the MCP client (the proxy is its server): stdio of this process, say. */
  readonly client: Transport;
  /** Towards the real MCP server (the proxy is its client): a spawned command, say. */
  readonly server: Transport;
  readonly plan: FaultPlan;
  /** Seeds the plan's `probability` draws. */
  readonly seed: number;
  /** Real time by default: the proxy sits between two live processes. */
  readonly clock?: Clock;
  /**
   * Each tool's risk (R4), named by the plan: it wins over the server's annotations, for a
   * client that caches its tool list (the proxy asks the server itself otherwise).
   */
  readonly risks?: Readonly<Record<string, Risk>>;
}

/** Ends a call once: records its outcome and, with an answer, answers the client. */
type Finish = (outcome: CallResultKind, clientSaw: ClientSaw, answer: Response | undefined, error?: ErrorData) => void;
/** The names one call goes by in the history. */
interface CallIds {
  readonly request: string;
  readonly tool: string;
  readonly call: string;
}

/**
 * A fault-injecting MCP proxy: every JSON-RPC message passes through untouched, except
 * `tools/call`, to which the fault plan applies (matched by `tool`, counted per tool as `call`).
 * Refusals (rate limits, 5xx, permissions…) come back as `CallToolResult` with `isError: true`,
 * a tool error the model can read, never a JSON-RPC protocol error (R16); `malformed` is the
 * one protocol-level fault (the server acted, its answer is corrupt: a JSON-RPC error).
 * `timeout` never reaches the server and never answers; `partial_write` reaches it (it commits)
 * and loses the answer (R18); `duplicate` delivers the call `copies` times; `latency` delays it.
 */
export class McpFaultProxy {
  readonly #client: Transport;
  readonly #server: Transport;
  readonly #plan: FaultPlan;
  readonly #rng: Rng;
  readonly #clock: Clock;
  readonly #history: History;
  readonly #start: number;
  readonly #hits: number[] = [];
  readonly #perTool = new Map<string, number>();
  readonly #risks: ToolRisks;
  readonly #calls: ProxiedCall[] = [];
  /** Upstream ids of requests the proxy made itself, and who waits for each answer. */
  readonly #waiting = new Map<string, (answer: Response) => void>();
  /** Calls not yet finished, and how each would be settled if the proxy closed now. */
  readonly #unfinished = new Map<string, () => void>();
  /** Client calls the client cancelled (it gave up waiting). */
  readonly #cancelled = new Set<Id>();
  /** For each client call in flight upstream, the ids the server knows it by (a duplicate has several). */
  readonly #upstreamIds = new Map<Id, string[]>();
  /** Client `tools/list` requests, whose answers tell each tool's risk (its annotations). */
  readonly #listing = new Set<Id>();
  /** Client calls the proxy holds (a `latency` fault) before the server has seen them. */
  readonly #held = new Set<Id>();
  #next = 0;
  #callCount = 0;
  #closed: Promise<McpProxyRecord> | undefined;
  #resolveClosed: ((r: McpProxyRecord) => void) | undefined;

  constructor(options: McpFaultProxyOptions) {
    this.#client = options.client;
    this.#server = options.server;
    this.#plan = options.plan;
    this.#rng = new Rng(options.seed).fork('faults');
    this.#clock = options.clock ?? new RealClock();
    this.#history = new History(this.#clock);
    this.#start = this.#clock.now();
    this.#risks = new ToolRisks(options.risks);
  }

  /** Settles with the record once either side has closed (or `close` was called). */
  get closed(): Promise<McpProxyRecord> {
    this.#closed ??= new Promise((resolve) => (this.#resolveClosed = resolve));
    return this.#closed;
  }

  /** Starts both sides. */
  async start(): Promise<void> {
    void this.closed;
    this.#client.onmessage = (m) => void this.#fromClient(m);
    this.#server.onmessage = (m) => this.#fromServer(m);
    this.#client.onclose = () => void this.close();
    this.#server.onclose = () => void this.close();
    await this.#server.start();
    await this.#client.start();
  }

  /** Closes both sides (the server process ends with its transport) and settles the record. */
  async close(): Promise<McpProxyRecord> {
    // A call still waiting on the server when either side goes: the server may have acted.
    for (const settle of [...this.#unfinished.values()]) settle();
    const record = { calls: [...this.#calls], history: [...this.#history.events] };
    if (this.#resolveClosed) {
      const resolve = this.#resolveClosed;
      this.#resolveClosed = undefined;
      this.#client.onclose = undefined;
      this.#server.onclose = undefined;
      await Promise.allSettled([this.#server.close(), this.#client.close()]);
      resolve(record);
    }
    return this.closed;
  }

  #fromServer(message: JSONRPCMessage): void {
    if (isResponse(message) && typeof message.id === 'string' && this.#waiting.has(message.id)) {
      const wake = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      wake?.(message);
      return;
    }
    if (isResponse(message) && this.#listing.delete(message.id)) this.#risks.learn(message);
    void this.#client.send(message);
  }

  async #fromClient(message: JSONRPCMessage): Promise<void> {
    if (!isRequest(message) || message.method !== 'tools/call') {
      if (isRequest(message) && message.method === 'tools/list') this.#listing.add(message.id);
      const cancelled = cancelledId(message);
      if (cancelled !== undefined && this.#held.has(cancelled)) {
        // Held before the server: the server never hears of it, and it will not be sent.
        this.#cancelled.add(cancelled);
        return;
      }
      if (cancelled !== undefined && this.#upstreamIds.has(cancelled)) {
        // The server knows the call by the proxy's ids: cancel every copy under its own.
        this.#cancelled.add(cancelled);
        for (const id of this.#upstreamIds.get(cancelled) ?? []) {
          await this.#server.send({
            ...message,
            params: { ...(message as { params: object }).params, requestId: id },
          } as JSONRPCMessage);
          // A server does not answer a cancelled request: settle the wait here.
          const wake = this.#waiting.get(id);
          this.#waiting.delete(id);
          wake?.({ jsonrpc: '2.0', id, error: { code: -32800, message: 'cancelled by the client' } });
        }
        return;
      }
      await this.#server.send(message);
      return;
    }
    await this.#call(message);
  }

  /** Every page of the server's `tools/list`, asked under the proxy's own ids. */
  async #listTools(): Promise<void> {
    let cursor: unknown;
    for (let page = 0; page < 100; page++) {
      const id = `faultline-${++this.#next}`;
      const answer = await new Promise<Response>((resolve) => {
        this.#waiting.set(id, resolve);
        this.#unfinished.set(id, () => {
          this.#waiting.delete(id);
          resolve({ jsonrpc: '2.0', id, error: { code: -32000, message: 'closed' } });
        });
        this.#server
          .send({
            jsonrpc: '2.0',
            id,
            method: 'tools/list',
            ...(typeof cursor === 'string' && { params: { cursor } }),
          } as JSONRPCMessage)
          .catch(() => this.#unfinished.get(id)?.());
      });
      this.#unfinished.delete(id);
      if (answer.error) return;
      this.#risks.learn(answer);
      cursor = answer.result?.['nextCursor'];
      if (typeof cursor !== 'string') return;
    }
  }

  async #call(req: Request): Promise<void> {
    const params = req.params ?? {};
    const tool = typeof params['name'] === 'string' ? params['name'] : '';
    const nth = (this.#perTool.get(tool) ?? 0) + 1;
    this.#perTool.set(tool, nth);
    const call = `call-${++this.#callCount}`;
    const request = `req-${++this.#next}`;
    const ids: CallIds = { request, tool, call };
    const h = this.#history;
    // Held while the risk is looked up, so a cancel in that time is honoured too.
    this.#held.add(req.id);
    const risk = await this.#risks.of(tool, () => this.#listTools());
    h.record({ type: 'tool_call', call, tool, risk, honoursKeys: false, input: params['arguments'] ?? {} });
    h.record({ type: 'attempt', call, attempt: 1, tool, purpose: 'call', request });
    const picked = this.#pickFault(tool, nth, call, request);
    const fault = picked?.rule.fault;
    const faultRef = picked && { rule: picked.index, kind: picked.rule.fault.kind };
    let deliveries = 0;
    const deliver = async (): Promise<Response> => {
      h.record({ type: 'delivery', request, tool, copy: deliveries++, call, attempt: 1 });
      return this.#forward(req);
    };
    const finish: Finish = (outcome, clientSaw, answer, error) => {
      if (!this.#unfinished.delete(call)) return;
      h.record({ type: 'outcome', call, tool, result: outcome, attempts: 1, ...(error && { error }) });
      this.#calls.push({ call, tool, ...(faultRef && { fault: faultRef }), deliveries, outcome, clientSaw });
      if (answer) void this.#client.send({ ...answer, id: req.id } as JSONRPCMessage);
    };

    this.#unfinished.set(call, () =>
      finish('unknown', 'nothing', undefined, unknownError('the proxy closed while the call was in flight')),
    );
    if (fault?.kind === 'latency') await this.#clock.sleep(fault.ms);
    this.#held.delete(req.id);
    if (this.#cancelled.delete(req.id)) {
      // The client gave up while the proxy held the call: it is never sent, and the server never acts.
      this.#recordResponse(ids, 'error', 'the client cancelled the call before it was sent');
      finish('error', 'nothing', undefined, timedOut('the client cancelled the call before the proxy sent it'));
      return;
    }
    if (!fault || fault.kind === 'latency' || fault.kind === 'duplicate') {
      await this.#delivered(fault, req.id, ids, deliver, finish);
    } else if (fault.kind === 'timeout') {
      // Never delivered, never answered: the client's own timeout decides, and it cannot tell what happened.
      finish('unknown', 'nothing', undefined, timedOut('no answer: the request was dropped before the server'));
    } else if (fault.kind === 'partial_write' || fault.kind === 'malformed') {
      await deliver();
      this.#answerLost(fault, req.id, ids, finish);
    } else this.#refuse(fault, req.id, ids, finish);
  }

  /** The call reaches the server (`copies` times for a duplicate, at once if concurrent); the first answer counts. */
  async #delivered(
    fault: FaultOf<'latency' | 'duplicate'> | undefined,
    id: Id,
    ids: CallIds,
    deliver: () => Promise<Response>,
    finish: Finish,
  ): Promise<void> {
    const copies = fault?.kind === 'duplicate' ? fault.copies : 1;
    const answers =
      fault?.kind === 'duplicate' && fault.concurrent ? await Promise.all(Array.from({ length: copies }, deliver)) : [];
    for (let i = answers.length; i < copies; i++) answers.push(await deliver());
    const first = answers[0]!;
    if (this.#cancelled.delete(id)) {
      // The client stopped waiting: whether the server acted, it cannot know (R18).
      this.#recordResponse(ids, 'lost', 'the client cancelled the call');
      finish('unknown', 'nothing', undefined, timedOut('the client cancelled the call while it was in flight'));
      return;
    }
    const isError = first.error !== undefined || first.result?.['isError'] === true;
    this.#recordResponse(ids, isError ? 'error' : 'ok', first.error?.message);
    finish(isError ? 'error' : 'ok', first.error ? 'protocol_error' : isError ? 'tool_error' : 'result', first);
  }

  /** The rule that applies to this call, if any, counted and recorded. */
  #pickFault(tool: string, nth: number, call: string, request: string): ReturnType<typeof pickRule> {
    const picked = pickRule(
      this.#plan,
      { tool, purpose: 'call', call: nth, attempt: 1, elapsedMs: this.#clock.now() - this.#start },
      this.#hits,
      this.#rng,
    );
    if (picked) {
      this.#hits[picked.index] = (this.#hits[picked.index] ?? 0) + 1;
      this.#history.record({
        type: 'fault',
        request,
        tool,
        rule: picked.index,
        fault: picked.rule.fault,
        call,
        attempt: 1,
      });
    }
    return picked;
  }

  /** The server got the call and answered; the answer is lost or corrupted on the way back (R18: the client cannot know). */
  #answerLost(fault: FaultOf<'partial_write' | 'malformed'>, id: Id, ids: CallIds, finish: Finish): void {
    const lost = fault.kind === 'malformed' ? 'corrupted' : 'lost';
    this.#recordResponse(ids, 'lost', `the server answered; the answer was ${lost}`);
    if (fault.kind === 'malformed') {
      const error = unknownError('malformed answer');
      finish(
        'unknown',
        'protocol_error',
        {
          jsonrpc: '2.0',
          id,
          error: { code: -32603, message: 'faultline: the tool ran, but its answer arrived corrupt (malformed)' },
        },
        error,
      );
      return;
    }
    if (fault.lostAs === 'timeout') {
      finish('unknown', 'nothing', undefined, timedOut('the server committed; the answer was lost'));
      return;
    }
    const answer: Answer =
      fault.lostAs === 'network'
        ? {}
        : {
            status: 504,
            ...(fault.headers && { headers: fault.headers }),
            ...(fault.body !== undefined && { body: fault.body }),
          };
    const error = errorOf(fault.lostAs === 'network' ? 'network' : 'unavailable', answer, this.#clock.now());
    finish(
      'unknown',
      'tool_error',
      toolError(id, error, answer, 'the tool may have run: its answer was lost on the way back'),
      error,
    );
  }

  /** The call is refused before the server: an error answer of the fault's kind. */
  #refuse(fault: Fault, id: Id, ids: CallIds, finish: Finish): void {
    const answer = answerOf(
      fault.kind === 'server_error' ? serverError(fault) : faultError(fault as RefusalFault, this.#clock.now()),
    );
    const error = errorOf(REFUSAL_KINDS[fault.kind] ?? 'unknown', answer, this.#clock.now());
    this.#recordResponse(ids, 'error', error.message, error.status);
    finish('error', 'tool_error', toolError(id, error, answer, 'the request did not reach the tool'), error);
  }

  /** The call's `response` event: its status and message when there are. */
  #recordResponse(
    { request, tool, call }: CallIds,
    result: 'ok' | 'error' | 'lost',
    message?: string,
    status?: number,
  ): void {
    this.#history.record({
      type: 'response',
      request,
      tool,
      result,
      ...(status !== undefined && { status }),
      ...(message !== undefined && { message }),
      call,
      attempt: 1,
    });
  }

  /** Sends `req` upstream under an id of the proxy's own, so a duplicate's copies do not collide. */
  #forward(req: Request): Promise<Response> {
    const id = `faultline-${++this.#next}`;
    const ids = this.#upstreamIds.get(req.id) ?? [];
    this.#upstreamIds.set(req.id, [...ids, id]);
    return new Promise<Response>((resolve) => {
      this.#waiting.set(id, resolve);
      void this.#server.send({ ...req, id } as JSONRPCMessage);
    }).finally(() => {
      const left = (this.#upstreamIds.get(req.id) ?? []).filter((x) => x !== id);
      if (left.length === 0) this.#upstreamIds.delete(req.id);
      else this.#upstreamIds.set(req.id, left);
    });
  }
}

/** A call that ended without an answer the client could read: it timed out, for all the client knows. */
function timedOut(message: string): ErrorData {
  return { kind: 'timeout', message, retryable: true };
}

/** A call whose outcome the proxy never learnt. */
function unknownError(message: string): ErrorData {
  return { kind: 'unknown', message, retryable: false };
}
