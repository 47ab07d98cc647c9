/**
 * What a test file could leave behind in the process it ran in: the files of a shared graph
 * (`isolate: false` in vitest.config.ts) run one after another in one fork, so a working directory,
 * a variable, a listener or a patched global one file leaves would be the next file's starting
 * state, and a test would pass or fail by the order vitest picked. `leavesNothing.ts` compares a
 * snapshot taken before each file with one taken after it.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'exit',
  'beforeExit',
  'uncaughtException',
  'unhandledRejection',
  'warning',
  'message',
  'disconnect',
] as const;

/**
 * Listeners set once per process, whichever file comes first, and the same function whatever
 * it was: the CLI's `--workers 0` guard (src/runner/inProcessGuard.ts: an agent's timer that throws
 * after its trial is said in one line), the binary included; and the OpenAI Agents SDK's trace
 * provider, once an agent on it is loaded in this process (@openai/agents-core's tracing/provider:
 * flush its traces at exit, SIGINT, SIGTERM and an unhandled rejection, exiting only when no other
 * listener is there, as vitest's always is). Not a file's state: every order ends with them.
 */
const oncePerProcess = (listener: unknown): boolean =>
  typeof listener === 'function' &&
  (listener.name === 'lateEscape' ||
    /hasOtherListenersFor|Cleanup timeout, forcing exit/.test(Function.prototype.toString.call(listener)));

/**
 * The CLI's guard on fetch (src/faults/http/outboundGuard.ts), installed once per process when it
 * first loads a user's module (a trace exporter on a timer must never send outside a trial).
 */
const OUTBOUND_GUARD = Symbol.for('faultline.outboundGuard');
const outboundGuarded = (): boolean => (globalThis as { [OUTBOUND_GUARD]?: unknown })[OUTBOUND_GUARD] !== undefined;

/**
 * Globals a module defines when it is first loaded in the process, whichever file loads it (zod's
 * registry, once the built CLI is imported): the module cache's state, the same for every order.
 */
const MODULE_GLOBALS = new Set(['__zod_globalConfig', '__zod_globalRegistry']);

/** Globals a file could patch and the next file would then call. */
function patchables(): Record<string, unknown> {
  return {
    fetch: globalThis.fetch,
    Date: globalThis.Date,
    'Date.now': Date.now,
    JSON: globalThis.JSON,
    'JSON.parse': JSON.parse,
    'JSON.stringify': JSON.stringify,
    'Math.random': Math.random,
    'performance.now': performance.now,
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    setImmediate: globalThis.setImmediate,
    queueMicrotask: globalThis.queueMicrotask,
    Promise: globalThis.Promise,
    'process.exit': process.exit,
    'process.stdout.write': process.stdout.write,
    'process.stderr.write': process.stderr.write,
    'http.request': http.request,
    'http.get': http.get,
    'http.ClientRequest': http.ClientRequest,
    'https.request': https.request,
    'net.Socket.prototype.connect': net.Socket.prototype.connect,
    'Error.stackTraceLimit': Error.stackTraceLimit,
  };
}

export interface ProcessState {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly exitCode: typeof process.exitCode;
  readonly listeners: Readonly<Record<string, readonly unknown[]>>;
  readonly globals: Readonly<Record<string, unknown>>;
  readonly globalNames: readonly string[];
  readonly outboundGuarded: boolean;
}

export function processState(): ProcessState {
  return {
    cwd: process.cwd(),
    env: { ...process.env },
    exitCode: process.exitCode,
    listeners: Object.fromEntries(
      EVENTS.map((e) => [e, (process as NodeJS.EventEmitter).listeners(e).filter((l) => !oncePerProcess(l))]),
    ),
    globals: patchables(),
    globalNames: Object.getOwnPropertyNames(globalThis).sort(),
    outboundGuarded: outboundGuarded(),
  };
}

/** What changed from `before` to `after`, one line each; empty when nothing did. */
export function stateChanges(before: ProcessState, after: ProcessState): string[] {
  const out: string[] = [];
  if (before.cwd !== after.cwd) out.push(`the working directory: ${before.cwd} → ${after.cwd}`);
  for (const k of new Set([...Object.keys(before.env), ...Object.keys(after.env)]))
    if (before.env[k] !== after.env[k])
      out.push(`process.env.${k}: ${String(before.env[k])} → ${String(after.env[k])}`);
  if (before.exitCode !== after.exitCode)
    out.push(`process.exitCode: ${String(before.exitCode)} → ${String(after.exitCode)}`);
  for (const e of EVENTS) {
    const [was, is] = [before.listeners[e] ?? [], after.listeners[e] ?? []];
    if (was.length !== is.length || was.some((l, i) => l !== is[i]))
      out.push(`process listeners of '${e}': ${was.length} → ${is.length} (or others)`);
  }
  const guardInstalled = !before.outboundGuarded && after.outboundGuarded;
  for (const k of Object.keys(before.globals))
    if (!Object.is(before.globals[k], after.globals[k]) && !(k === 'fetch' && guardInstalled))
      out.push(`${k} was replaced`);
  const had = new Set(before.globalNames);
  const added = after.globalNames.filter((n) => !had.has(n) && !MODULE_GLOBALS.has(n));
  if (added.length > 0) out.push(`globals added: ${added.join(', ')}`);
  return out;
}
