import { readdirSync, readFileSync } from 'node:fs';
import { defineService, ServiceError, z } from '../../src/public/index.js';

/** A marker no other process on the machine has in its arguments: how the tests count leftovers. */
// This process's id in the last digits: another copy of the suite running at the same time runs
// the same sleeps, and `markedProcesses` took its for ours.
export const MARKER = `41.0719${String(process.pid % 10_000).padStart(4, '0')}`;

/**
 * A build service whose one tool runs a local command: the command forks a grandchild that
 * sleeps, then sleeps itself, both far past the timeout. `leak: true` is the broken neighbour:
 * it exits at once and leaves its grandchild behind (as `Popen.communicate(timeout=)` would).
 */
export const builds = defineService({
  name: 'builds',
  options: z.object({ timeoutMs: z.number().int().positive().default(30), leak: z.boolean().default(false) }),
  state: { runs: 0 },
  tools: {
    run_build: {
      description: 'Run the build command for a target',
      risk: 'idempotent-write',
      input: z.object({ target: z.string() }).strict(),
      async run(input, ctx) {
        ctx.state.runs++;
        const script = ctx.options.leak
          ? `sleep ${MARKER} >/dev/null 2>&1 & echo forked ${input.target}`
          : `sleep ${MARKER} & echo forked ${input.target}; sleep ${MARKER}`;
        const result = await ctx.command({
          argv: ['sh', '-c', script],
          timeoutMs: ctx.options.timeoutMs,
          graceMs: 1000,
        });
        if (result.kind === 'timed_out') {
          throw new ServiceError(504, {
            code: 'build_timed_out',
            message: `the build of ${input.target} timed out after ${result.timeoutMs}ms; its output so far: ${result.stdout.trim()}`,
          });
        }
        return { exitCode: result.exitCode, stdout: result.stdout };
      },
    },
  },
});

/** The processes alive now whose arguments carry the marker (zombies are dead and not counted). */
export function markedProcesses(): number {
  let n = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline.includes(MARKER) && state !== 'Z') n++;
    } catch {
      // Gone while we looked.
    }
  }
  return n;
}
