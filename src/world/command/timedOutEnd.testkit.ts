import type { EventOf } from '../../core/index.js';

/** `cmd-1` ended by its 50 ms timeout: its group sent SIGTERM, which it obeyed, having written nothing. */
export const TIMED_OUT_END: Omit<EventOf<'command_end'>, 'seq' | 't'> = {
  type: 'command_end',
  command: 'cmd-1',
  result: 'timed_out',
  exitCode: null,
  signal: 'SIGTERM',
  stdout: '',
  stderr: '',
  timeoutMs: 50,
  killedWith: 'SIGTERM',
};
