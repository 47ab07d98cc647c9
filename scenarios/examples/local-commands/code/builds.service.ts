/**
 * A build service whose tool runs a local command (R19). `leak: true` is the broken neighbour:
 * its command backgrounds a grandchild and exits, leaving it running, as a tool built on
 * Python's `Popen.communicate(timeout=)` would.
 */
import { defineService, ServiceError, z } from 'faultline';

export default defineService({
  name: 'builds',
  description: 'Builds run as local commands.',
  options: z.object({ timeoutMs: z.number().int().positive().default(300), leak: z.boolean().default(false) }),
  state: { builds: 0 },
  tools: {
    run_build: {
      description: 'Run the build of a target; answers with its exit code and output.',
      risk: 'idempotent-write',
      input: z.object({ target: z.string().min(1) }).strict(),
      async run({ target }, ctx) {
        ctx.state.builds++;
        // The "build" forks a grandchild, then outlives the timeout itself.
        const script = ctx.options.leak
          ? `sleep 30 >/dev/null 2>&1 & echo built ${target}`
          : `sleep 30 & echo building ${target}; sleep 30`;
        const result = await ctx.command({
          argv: ['sh', '-c', script],
          timeoutMs: ctx.options.timeoutMs,
          graceMs: 1000,
        });
        if (result.kind === 'timed_out') {
          throw new ServiceError(504, {
            code: 'build_timed_out',
            message: `the build of ${target} timed out after ${result.timeoutMs} ms; output so far: ${result.stdout.trim()}`,
          });
        }
        return { exitCode: result.exitCode, stdout: result.stdout };
      },
    },
  },
});
