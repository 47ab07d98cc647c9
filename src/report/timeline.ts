import type { ErrorData, FaultData, HistoryEvent } from '../core/index.js';
import { compactJson } from './format.js';

/** `+1.250s`: virtual time since the trial began. */
export const formatOffset = (ms: number): string => `+${(ms / 1000).toFixed(3)}s`;

const faultText = (f: FaultData): string => {
  const params = Object.entries(f)
    .filter(([k]) => k !== 'kind')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : compactJson(v)}`);
  return params.length === 0 ? f.kind : `${f.kind}(${params.join(', ')})`;
};

const errorText = (e: ErrorData): string => {
  const extra = [
    ...(e.status !== undefined ? [String(e.status)] : []),
    ...(e.code !== undefined ? [e.code] : []),
    ...(e.retryAfterMs !== undefined ? [`retry after ${e.retryAfterMs}ms`] : []),
  ];
  return extra.length === 0 ? e.kind : `${e.kind} (${extra.join(', ')})`;
};

const withKey = (key: string | undefined): string => (key === undefined ? '' : `, key ${key}`);

type WireEvent = Extract<
  HistoryEvent,
  { type: 'fault' | 'lie' | 'delivery' | 'effect' | 'response' | 'command_start' | 'command_end' }
>;

/** The line for an event on the wire under an attempt (or a command's process), depth 2. */
function wireText(e: WireEvent): string {
  switch (e.type) {
    case 'fault':
      return `fault ${faultText(e.fault)} on ${e.request} (rule ${e.rule})`;
    case 'lie':
      return (
        `lie (${e.fault.kind}) on ${e.request}: the world held ${compactJson(e.held, 100)}, ` +
        `answered ${compactJson(e.answered, 100)}${e.asOf === undefined ? '' : ` (as of t=${e.asOf}ms)`}`
      );
    case 'delivery':
      return `delivered ${e.request} to ${e.tool}${e.copy > 0 ? ` (copy ${e.copy + 1})` : ''}`;
    case 'effect':
      return `effect ${e.effect} key=${e.key} (#${e.ledgerSeq})`;
    case 'response': {
      const legs = e.legs
        ? ` [network ${e.legs.request}ms out${e.legs.response === undefined ? '' : `, ${e.legs.response}ms back`}]`
        : '';
      // A streamed answer: how far the client got, and for a stall the why, since a lost stream did begin.
      const stream = e.stream ? ` [stream: ${e.stream.events} of ${e.stream.of} events]` : '';
      if (e.result === 'lost')
        return `response to ${e.request} lost${stream && e.message !== undefined ? ` ${compactJson(e.message, 160)}` : ''}${stream}${legs}`;
      const status = e.status !== undefined ? ` ${e.status}` : '';
      const wait = e.retryAfter !== undefined ? ` (Retry-After: ${e.retryAfter})` : '';
      return (
        `response to ${e.request}: ` +
        `${e.result}${status}${e.message !== undefined ? ` ${compactJson(e.message, 120)}` : ''}${wait}${stream}${legs}`
      );
    }
    case 'command_start':
      return `${e.command} started: ${compactJson(e.argv.join(' '), 120)}`;
    case 'command_end': {
      const status = e.signal !== null ? `signal ${e.signal}` : `exit ${e.exitCode ?? '?'}`;
      const how =
        e.result === 'timed_out'
          ? `timed out after ${e.timeoutMs ?? '?'}ms, ${e.killedWith ?? ''} sent, ${status}`
          : e.result === 'exited'
            ? status
            : `failed to start: ${e.message ?? ''}`;
      return `${e.command} ${how}${e.stdout ? ` stdout ${compactJson(e.stdout, 80)}` : ''}`;
    }
  }
}

/** A value of the checkpoint store as stored (it is text already, often JSON): quoted only when it would break the line. */
function storedText(value: string): string {
  // Control characters (a newline) would break the replay's line.
  const text = /[\u0000-\u001f]/.test(value) ? JSON.stringify(value) : value;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The line for one event, and how deep it sits: 0 the agent, 1 a tool call, 2 the wire under an attempt. */
export function describeEvent(e: HistoryEvent): [depth: number, text: string] {
  switch (e.type) {
    case 'trial_start':
    case 'model_turn':
    case 'agent_start':
    case 'model_error':
    case 'agent_wait':
    case 'process_left':
    case 'agent_crash':
    case 'agent_restart':
    case 'kv':
    case 'agent_end':
    case 'heal':
    case 'trial_end':
      return [0, agentText(e)];
    case 'tool_call':
    case 'operation':
    case 'attempt':
    case 'http_request':
    case 'attempt_end':
    case 'retry_wait':
    case 'give_up':
    case 'reconcile':
    case 'outcome':
    case 'feedback':
    case 'escape':
    case 'unserved_request':
      return [1, callText(e)];
    case 'fault':
    case 'lie':
    case 'delivery':
    case 'effect':
    case 'response':
    case 'command_start':
    case 'command_end':
      return [2, wireText(e)];
  }
}

type AgentEvent = Extract<
  HistoryEvent,
  {
    type:
      | 'trial_start'
      | 'model_turn'
      | 'agent_start'
      | 'model_error'
      | 'agent_wait'
      | 'process_left'
      | 'agent_crash'
      | 'agent_restart'
      | 'kv'
      | 'agent_end'
      | 'heal'
      | 'trial_end';
  }
>;

/** The line for an event of the agent or the trial, depth 0. */
function agentText(e: AgentEvent): string {
  switch (e.type) {
    case 'trial_start':
      return `trial ${e.trialIndex} of ${e.scenario} under ${e.config} (seed ${e.seed})`;
    case 'model_turn': {
      if (e.action === 'final') return `turn ${e.turn}: final answer`;
      if (e.action === 'wait') return `turn ${e.turn}: wait${e.waitMs !== undefined ? ` ${e.waitMs}ms` : ''}`;
      const calls = (e.calls ?? []).map((c) => `${c.tool} (${c.call})`).join(', ');
      return `turn ${e.turn}: calls ${calls || 'nothing'}`;
    }
    case 'agent_start':
      return `${e.caller} starts at t=${e.startMs}ms`;
    case 'model_error':
      return `model error: ${errorText(e.error)}: ${e.error.message}`;
    case 'agent_wait':
      return `agent waits ${e.ms}ms`;
    case 'process_left':
      return (
        `${e.command} left a process alive at the trial's ` +
        `end${e.escaped ? ` (outside its group: ${e.escaped.join(', ')})` : ''} (killed then)`
      );
    case 'agent_crash':
      return (
        `agent killed (crash ${e.trigger})` +
        (e.request === undefined ? '' : `: the answer to ${e.request} (${e.tool ?? '?'}) never reached it`)
      );
    case 'agent_restart':
      return `agent restarted (restart ${e.restart}): same task, working folder, checkpoint store and world`;
    case 'kv':
      return e.op === 'set'
        ? `checkpoint store: ${e.key} = ${storedText(e.value ?? '')}`
        : `checkpoint store: ${e.key} deleted`;
    case 'agent_end': {
      const claims = e.claims
        .map((c) => `${c.subject} ${c.status}${c.by === 'stand-in' && e.by !== 'stand-in' ? " (the stand-in's)" : ''}`)
        .join(', ');
      const claimed = claims ? ` (claims ${claims})` : '';
      const passedOn = e.by === 'stand-in' ? ": the stand-in model's final answer, passed on" : '';
      return `agent ended: ${e.outcome} ${compactJson(e.message, 120)}${claimed}${passedOn}`;
    }
    case 'heal':
      return `heal: the faults end here (${e.rules === 1 ? 'its 1 fault rule stops' : `its ${e.rules} fault rules stop`} matching)`;
    case 'trial_end':
      return `trial end: ${e.status}${e.message !== undefined ? `: ${e.message}` : ''}`;
  }
}

type CallEvent = Extract<
  HistoryEvent,
  {
    type:
      | 'tool_call'
      | 'operation'
      | 'attempt'
      | 'http_request'
      | 'attempt_end'
      | 'retry_wait'
      | 'give_up'
      | 'reconcile'
      | 'outcome'
      | 'feedback'
      | 'escape'
      | 'unserved_request';
  }
>;

/** The line for an event of a tool call (its attempts, waits and outcome), depth 1. */
function callText(e: CallEvent): string {
  switch (e.type) {
    case 'tool_call':
      return `${e.call} ${e.tool} [${e.risk}] ${compactJson(e.input, 120)}${e.caller !== undefined ? ` from ${e.caller}` : ''}`;
    case 'operation':
      return (
        `${e.call} operation ` +
        `${e.op} ${e.state}${withKey(e.idempotencyKey)}${e.businessKey !== undefined ? `, business key ${e.businessKey}` : ''}`
      );
    case 'attempt':
      return (
        `${e.call} ${e.tool}${e.purpose === 'status' ? ' status query' : ''} attempt ` +
        `${e.attempt} (${e.request}${withKey(e.idempotencyKey)})`
      );
    case 'http_request': {
      const status = e.purpose === 'status' ? ' status query' : '';
      return `${e.call}${status} attempt ${e.attempt}: ${e.method} ${e.url} (${e.request}${withKey(e.idempotencyKey)})`;
    }
    case 'attempt_end': {
      const what = `${e.call}${e.purpose === 'status' ? ' status query' : ''} attempt ${e.attempt} (${e.request})`;
      return e.result === 'ok' ? `${what} ok` : `${what} failed: ${e.error ? errorText(e.error) : 'error'}`;
    }
    case 'retry_wait':
      return `wait ${e.ms}ms (${e.reason === 'retry_after' ? 'Retry-After' : 'backoff'})`;
    case 'give_up':
      return `${e.call} gave up: ${e.reason}${e.error ? ` after ${errorText(e.error)}` : ''}`;
    case 'reconcile':
      return `${e.call} reconcile ${e.op}: ${e.found}`;
    case 'outcome': {
      const n = `${e.attempts} attempt${e.attempts === 1 ? '' : 's'}`;
      return `${e.call} ${e.tool} → ${e.result} after ${n}${e.error ? `: ${errorText(e.error)}` : ''}`;
    }
    case 'feedback':
      return `${e.call} feedback (${e.format}${e.isError ? ', error' : ''}): ${compactJson(e.text, 120)}`;
    case 'escape':
      return `escaped interception: ${e.method} ${e.url} (refused, not sent)`;
    case 'unserved_request':
      return `unserved: ${e.method} ${e.url} (refused: ${e.servedHere ? 'served here' : 'served hosts'}: ${e.served.join(', ')})`;
  }
}

/**
 * A trial's history, one line per event: its virtual time, then the event indented by
 * depth (agent, tool call, wire). `faultline replay` appends the verdicts.
 *
 * @example
 * +0.000s   call-1 create_order attempt 1 (req-1, key idem-1)
 * +0.000s     fault partial_write(lostAs=timeout) on req-1 (rule 0)
 * +10.000s  call-1 attempt 1 failed: timeout
 */
export function formatTimeline(history: readonly HistoryEvent[]): string {
  const stamps = history.map((e) => formatOffset(e.t));
  const width = Math.max(0, ...stamps.map((s) => s.length));
  return history
    .map((e, i) => {
      const [depth, text] = describeEvent(e);
      return `${stamps[i]!.padEnd(width)}  ${'  '.repeat(depth)}${text}`;
    })
    .join('\n');
}
