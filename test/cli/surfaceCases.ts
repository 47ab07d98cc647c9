/**
 * The cases of the fuzzing of the surfaces added since the first fuzzing (issue 22), and how
 * each runs: the CLI in a user project (the real binary where the case is about the process, see
 * `binary`; else in this process through the entry the binary calls, which spares a Node start
 * per case). Each must end as the case says: refused (exit 2) naming the file and what was
 * wrong, or (for a service's or agent's code) a failed trial in a finished run. Tallied as
 * crashes (exit 3, a stack), silent acceptances (exit 0 where a refusal was due) and hangs (past
 * the bound); the suite requires 0 of each. Shared by fuzzNewSurfaces.test.ts and
 * fuzzNewSurfacesHeap.test.ts (the cases whose workers run out of heap, a file of their own so
 * that neither file runs long).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Finished } from './faultline.js';
import { inProcess } from './inProcess.js';
import { ORDER_AGENT_YAML } from './orderAgent.js';
import { userProject } from './userProject.js';

export interface Case {
  readonly cls: string;
  /** Files of the case's own folder (the command runs there). */
  readonly files: Readonly<Record<string, string>>;
  readonly args: readonly string[];
  readonly code: number;
  readonly stderr?: RegExp;
  readonly stdout?: RegExp;
  /** Extra checks on the finished process and the case's folder. */
  readonly also?: (r: Finished, dir: string) => Promise<void> | void;
  /** Run as an unprivileged user (read-only folders mean nothing to root). */
  readonly asUser?: boolean;
  readonly env?: Record<string, string>;
  /**
   * Why the case runs the real binary: it is about the process itself (a signal, a heap limit,
   * the process's stdin, a module that pollutes or outlives its host, an event loop left empty).
   * The others run in this process through the CLI's entry (./inProcess.ts), the same code.
   */
  readonly binary?: string;
  /**
   * In process, also take this process's own stderr into the case's (`inProcess`'s
   * `processStderr`): where a worker's host relays its stderr, as to the binary's.
   */
  readonly processStderr?: boolean;
}

export const SCENARIO = (name: string, extra = ''): string => `name: ${name}\n${extra}${ORDER_AGENT_YAML}`;

export const httpScenario = (agent = '  module: ./agent.ts\n', extra = ''): string => `name: over-http
services: [orders]
${extra}agent:
  kind: http
  task: Create order ref-1
${agent}`;
export const HTTP_AGENT = (body: string): string => `import { defineHttpAgent } from 'faultline';
export default defineHttpAgent(async () => {
  ${body}
  return { outcome: 'completed', claims: [] };
});
`;

export const CONFIG = (body: string): string => `export default ${body};\n`;

// A bound on each process's wall time, only to catch a hang (the `hangs` class): generous, so a
// loaded machine's slow but finishing run is never taken for one; under the suite's test timeout.
const BOUND_MS = 300_000;

async function cli(c: Case, cwd: string): Promise<Finished | 'hang'> {
  const asUser = c.asUser === true && process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  // Another user's process cannot be had in this one: such a case runs on the binary, whether it says so or not.
  const run =
    c.binary === undefined && c.asUser !== true
      ? undefined
      : start(c.args, { cwd, ...asUser, ...(c.env && { env: c.env }) });
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => {
      // An in-process case that hangs cannot be killed: it fails here, and so do the cases queued behind it.
      run?.child.kill('SIGKILL');
      resolve('hang');
    }, BOUND_MS);
  });
  try {
    const here = (): Promise<Finished> =>
      inProcess(c.args, {
        cwd,
        ...(c.env && { env: c.env }),
        ...(c.processStderr === true && { processStderr: true }),
      });
    return await Promise.race([run?.done ?? here(), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The cases as tests of one file: each in a folder of its own in one user project (with a real
 * report in `report/` for merge and view to start from), then the tally of crashes, silent
 * acceptances and hangs, which must all be 0. `name` names the file's cases in the tally's line.
 */
export function fuzzSurfaces(name: string, cases: readonly Case[]): void {
  let project: Awaited<ReturnType<typeof userProject>>;
  const tally = { cases: 0, crashes: 0, accepted: 0, hangs: 0 };
  beforeAll(async () => {
    project = await userProject('fuzz-new', { 'report/s.yaml': SCENARIO('s') });
    // A real report for merge and view to start from.
    const r = await inProcess(['run', 's.yaml', '--k', '1', '--out', '.', '--reporter', 'json'], {
      cwd: join(project.path, 'report'),
    });
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    console.info(
      `fuzz (${name}): ${tally.cases} cases, ${tally.crashes} crashes, ${tally.accepted} silently accepted, ${tally.hangs} hangs`,
    );
    await project.cleanup();
  });

  describe('bad input on the surfaces added since the first fuzzing', () => {
    cases.forEach((c, i) => {
      it(`${c.cls}: exit ${c.code}`, async () => {
        const dir = join(project.path, `case-${i}`);
        await mkdir(dir, { recursive: true });
        for (const [path, text] of Object.entries(c.files)) {
          await mkdir(dirname(join(dir, path)), { recursive: true });
          await writeFile(join(dir, path), text);
        }
        if (c.cls === 'view in a read-only folder') {
          await mkdir(join(dir, 'ro'));
          await writeFile(join(dir, 'ro/faultline.json'), await readFile(join(project.path, 'report/faultline.json')));
          await chmod(join(dir, 'ro'), 0o555);
          await chmod(dir, 0o777);
          await chmod(project.path, 0o755);
        }
        if (c.cls === 'replay --cassette of an unreadable file') {
          await chmod(join(dir, 'locked.json'), 0o000);
          await chmod(project.path, 0o755);
        }
        if (c.cls === 'merge of a tampered report') {
          const report = JSON.parse(await readFile(join(project.path, 'report/faultline.json'), 'utf8')) as {
            run: Record<string, unknown>;
          };
          await writeFile(join(dir, 'tampered.json'), JSON.stringify({ ...report, run: { ...report.run, k: 'two' } }));
        }
        const r = await cli(c, dir);
        tally.cases++;
        if (r === 'hang') {
          tally.hangs++;
          expect.fail(`faultline ${c.args.join(' ')} did not finish within ${BOUND_MS} ms`);
        }
        if (r.code === 3 || /\n\s+at |crashed \(this is a bug/.test(r.stderr)) tally.crashes++;
        if (r.code === 0 && c.code !== 0) tally.accepted++;
        expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(c.code);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        if (c.stderr) expect(r.stderr).toMatch(c.stderr);
        if (c.stdout) expect(r.stdout).toMatch(c.stdout);
        await c.also?.(r, dir);
      });
    });

    it('counts 0 crashes, 0 silent acceptances and 0 hangs', () => {
      expect(tally.cases).toBe(cases.length);
      expect(tally).toEqual({ cases: cases.length, crashes: 0, accepted: 0, hangs: 0 });
    });
  });
}
