import { failAll, type Verdict } from '../core/index.js';
import type { Checker } from './checker.js';
import { TrialIndex } from './trialIndex.js';

/**
 * R19: cancelling the wait does not end the process. Every process group a command tool
 * started must be gone when the trial ends; the trial's end probes them (the history cannot
 * see the operating system) and records each survivor as `process_left`.
 */
export const processCleanup: Checker = {
  name: 'process-cleanup',
  rules: ['R19'],
  description:
    "No process a command tool started (its group, or one that left it) is still alive at the trial's end (`process_left` events).",
  check(record): Verdict {
    const index = TrialIndex.of(record);
    const left = index.eventsOf('process_left');
    if (left.length === 0) return failAll([]);
    const started = new Map(index.eventsOf('command_start').map((e) => [e.command, e]));
    const ends = new Map(index.eventsOf('command_end').map((e) => [e.command, e]));
    return failAll(
      left.map((left) => {
        const end = ends.get(left.command);
        const how = !end
          ? 'its command never ended'
          : end.result === 'timed_out'
            ? `its command timed out after ${end.timeoutMs ?? '?'}ms and was sent ${end.killedWith ?? 'nothing'}`
            : `its command ended (${end.result})`;
        const escaped = left.escaped ?? [];
        const fled =
          escaped.length === 0
            ? ''
            : `; ${escaped.length} of its processes had left its process group (setsid or a double fork): ${escaped.join(', ')}`;
        return {
          message:
            `${left.command} (${left.argv.join(' ')}) left a process alive at the trial's end: ` +
            `${how}${fled}; kill the whole process ${escaped.length === 0 ? 'group' : 'tree'}, not just the child`,
          evidence: {
            command: left.command,
            argv: left.argv,
            seq: left.seq,
            started: started.get(left.command)?.seq,
            ended: end?.seq,
            ...(escaped.length > 0 && { escaped }),
          },
        };
      }),
    );
  },
};
