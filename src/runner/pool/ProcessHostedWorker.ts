import { spawn, type ChildProcess, type Serializable } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { WorkerOptions } from 'node:worker_threads';
import type { WorkerMessage } from './protocol.js';

/**
 * What the pool needs of a trial thread: Node's `Worker`, or one hosted in a process of its own.
 * Events: `message` (what the thread posted), `error` (an `Error` with `code`, as `Worker` emits),
 * `exit` (the exit code), each `exit` at most once.
 */
export interface TrialThread {
  postMessage(message: Serializable): void;
  on(event: 'message', listener: (message: WorkerMessage) => void): this;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  off(event: 'message', listener: (message: WorkerMessage) => void): this;
  off(event: 'error', listener: (error: Error & { code?: string }) => void): this;
  off(event: 'exit', listener: (code: number) => void): this;
  terminate(): Promise<unknown>;
}

/** The code Node gives a worker that ran past its heap limit; the pool's verdict names the limit. */
export const OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';

// Runs in the host process (plain JavaScript: no loader needed). It starts the trial thread with
// the options it is sent first, then relays messages both ways and the thread's error and exit.
// Stop signals are the parent's to act on: a Ctrl-C reaches the whole process group, and a trial
// in progress must finish (the pool stops it). Without its parent it has no one to answer: it ends.
const HOST = `
const { Worker } = require('node:worker_threads');
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.on('disconnect', () => process.exit(0));
let worker;
process.on('message', (m) => {
  if (worker !== undefined) return worker.postMessage(m);
  worker = new Worker(m.code, m.options);
  worker.on('message', (out) => process.send({ $: 'message', m: out }));
  worker.on('error', (e) => process.send({ $: 'error', code: e && e.code, name: e && e.name, message: e && e.message }));
  worker.on('exit', (code) => process.send({ $: 'exit', code }, () => process.exit(0)));
});`;

// What V8 prints when a heap runs out past any limit's rescue, and aborts the process.
const OOM_REPORT = /^(<--- Last few GCs --->|FATAL ERROR: .*out of memory|.*JavaScript heap out of memory)/;

/**
 * A worker thread in a child process of its own. Node's `resourceLimits` cannot stop every
 * runaway allocation: one that grows a single object past the limit in one step (a
 * `new Array(2 ** 28).fill(0)`) fails inside V8 after the thread was told to stop, and V8 then
 * aborts the whole process. Here that process is the host's, so the trial is lost and the run
 * goes on. The host inherits stdout; its stderr is passed through, but for V8's out-of-memory
 * report, which becomes an `ERR_WORKER_OUT_OF_MEMORY` error instead.
 */
export class ProcessHostedWorker extends EventEmitter implements TrialThread {
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #outOfMemory = false;
  #ended = false;

  constructor(code: string, options: WorkerOptions & { readonly eval: true }) {
    super();
    this.#child = spawn(process.execPath, ['-e', HOST], {
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
    let pending = '';
    // Blank lines wait for the next line: V8's report starts with one, which goes with it.
    let blanks = '';
    this.#child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (this.#outOfMemory) return;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (OOM_REPORT.test(line)) {
          this.#outOfMemory = true;
          return;
        }
        if (line === '') blanks += '\n';
        else {
          process.stderr.write(`${blanks}${line}\n`);
          blanks = '';
        }
      }
    });
    this.#child.on(
      'message',
      (
        m:
          | { $: 'message'; m: unknown }
          | { $: 'error'; code?: string; name?: string; message?: string }
          | { $: 'exit'; code: number },
      ) => {
        if (m.$ === 'message') this.emit('message', m.m);
        else if (m.$ === 'error')
          this.emit(
            'error',
            Object.assign(new Error(m.message ?? 'the worker failed'), {
              name: m.name ?? 'Error',
              ...(m.code !== undefined && { code: m.code }),
            }),
          );
        else this.#end(m.code);
      },
    );
    this.#child.on('error', (error) => this.emit('error', error));
    this.#child.once('close', (code, signal) => {
      if (!this.#outOfMemory && OOM_REPORT.test(pending)) this.#outOfMemory = true;
      if (!this.#outOfMemory && blanks + pending !== '') process.stderr.write(blanks + pending);
      if (this.#ended) return;
      // The thread took its process down: V8's own report says whether memory was why.
      if (this.#outOfMemory) {
        this.#ended = true;
        this.emit('error', Object.assign(new Error('JavaScript heap out of memory'), { code: OUT_OF_MEMORY }));
      } else this.#end(code ?? (signal === null ? 1 : 128));
    });
    this.#child.send({ code, options });
  }

  postMessage(message: Serializable): void {
    if (this.#child.connected) this.#child.send(message);
  }

  async terminate(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  #end(code: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.emit('exit', code);
  }
}
