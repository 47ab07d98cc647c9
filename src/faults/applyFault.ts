import type { Clock } from '../core/index.js';
import type { Fault, LieFault, ModelFault } from './fault.js';
import { faultError, lostAnswerError, serverError } from './faultError.js';

/** The parts of applying a fault that differ between transports (the in-process wire, HTTP). */
export interface FaultAnswers<A> {
  /** One arrival at the service, copy `copy`; with `failure`, the service fails that way. */
  deliver(copy: number, failure?: Error): Promise<A>;
  /** No answer comes back: for a `timeout` fault, or a `partial_write` lost as a timeout. */
  lost(cause: 'timeout' | 'partial_write'): A;
  /** The client sees `error` instead of an answer. */
  error(error: Error): A;
  /** A `malformed` fault's answer: a success cut short, anything else as it was. */
  malformed(answer: A): A;
  /** A fault that looks like success (`stale`, `empty`, `truncated`, `wrong_value`): delivered, and answered wrong. */
  lie(fault: LieFault): Promise<A>;
  /**
   * The model's own mistake (`malformed_arguments`…): only a model route makes one. A transport
   * without model routes (the in-process wire) never matches these (`matchesRule`) and leaves it out.
   */
  mistake?(fault: ModelFault): Promise<A>;
}

/**
 * What the client gets back when `fault` (or none) strikes a request, on any transport.
 * Rejects only through `signal`, when a latency sleep is aborted.
 */
export async function applyFault<A>(
  fault: Fault | undefined,
  answers: FaultAnswers<A>,
  clock: Clock,
  signal?: AbortSignal,
): Promise<A> {
  if (!fault) return answers.deliver(0);
  switch (fault.kind) {
    case 'timeout':
      return answers.lost('timeout');
    case 'latency': {
      // A slow service: the request arrives and commits now, the answer comes `ms` later;
      // a caller that gives up first has a committed write and no answer (R18).
      const answer = await answers.deliver(0);
      await clock.sleep(fault.ms, signal);
      return answer;
    }
    case 'network':
    case 'rate_limit':
    case 'quota_exceeded':
    case 'unavailable':
    case 'permission_denied':
    case 'rejected':
    case 'not_found':
    case 'conflict':
      return answers.error(faultError(fault, clock.now()));
    case 'partial_write':
      await answers.deliver(0);
      return fault.lostAs === 'timeout'
        ? answers.lost('partial_write')
        : answers.error(lostAnswerError(fault.lostAs, fault));
    case 'duplicate': {
      const copies = Array.from({ length: fault.copies }, (_, i) => i);
      // Each copy in a turn of its own (a simulated clock's): their arrivals are ordered by copy, not by the hops of the service.
      if (fault.concurrent) return (await Promise.all(copies.map((c) => inTurn(clock, () => answers.deliver(c)))))[0]!;
      const delivered: A[] = [];
      for (const c of copies) delivered.push(await answers.deliver(c));
      return delivered[0]!;
    }
    case 'server_error':
      return answers.deliver(0, serverError(fault));
    case 'malformed':
      // The status line survives; only a successful body is parsed, and it is cut short.
      return answers.malformed(await answers.deliver(0));
    case 'stale':
    case 'empty':
    case 'truncated':
    case 'wrong_value':
      return answers.lie(fault);
    case 'stream_cut':
    case 'stream_stall':
    case 'stream_malformed':
      // Delivered whole: the HTTP engine shapes the streamed answer (`HttpFaults`). Rules naming
      // these never match an unstreamed request (`matchesRule`), so no other transport sees them.
      return answers.deliver(0);
    case 'malformed_arguments':
    case 'invalid_arguments':
    case 'wrong_target':
    case 'unknown_tool':
    case 'refusal':
    case 'content_filter':
    case 'empty_text':
    case 'garbled':
    case 'error_in_200':
    case 'replayed':
    case 'context_length':
      return answers.mistake ? answers.mistake(fault) : answers.deliver(0);
  }
}

/** `run` in a turn of the clock's own at this instant, where the clock has turns (`Clock.nextTurn`). */
function inTurn<A>(clock: Clock, run: () => Promise<A>): Promise<A> {
  const turn = clock.nextTurn?.(-1);
  return turn ? turn.then(run) : run();
}
