/**
 * A `command` agent: any program, started per trial against the scenario's world served over
 * real HTTP on 127.0.0.1. From a user's project outside the repo, the first run through the
 * real binary, the other runs and the replays in process (`./inProcess.ts`; each agent is a
 * process of its own either way): the worked curl agent passes every checker with faults on and
 * off, and every kind of broken program ends its own trial with a verdict that says what went
 * wrong, never the run.
 */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const example = (path: string): Promise<string> => readFile(`${EXAMPLES}${path}`, 'utf8');

// This process's id in each mark's last digits: another copy of the suite running at the same time
// (a second checkout, another CI job on the host) runs the same sleeps, and its were taken for ours.
const OWN = String(process.pid % 10_000).padStart(4, '0');
/** A sleep no other process on the machine runs, so the test can look for it afterwards. */
const MARK = `31.4159${OWN}`;
/** The same, for a grandchild that leaves the group and session (`setsid`). */
const SETSID_MARK = `27.1828${OWN}`;
/** The same, for one orphaned by a middle process that cleared its environment (no FAULTLINE_PROCESS_TREE). */
const ENV_CLEARED_MARK = `25.0663${OWN}`;
const dots = (mark: string): string => mark.replace('.', '\\.');

const bad = (name: string, argv: string, timeoutMs = 5000): string => `name: ${name}
services: [orders]
agent:
  kind: command
  argv: ${argv}
  timeoutMs: ${timeoutMs}
goal:
  outcome: [completed]
`;

const shell = (name: string, faults: string): string => `name: ${name}
services: [./helpdesk.service.ts]
faults: ${faults}
agent:
  kind: command
  task: Open a ticket about the printer that is on fire.
  argv: [sh, agents/open-ticket.sh]
  timeoutMs: 20000
goal:
  effects: { ticket.opened: 1 }
  outcome: [completed]
`;

let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  project = await userProject('command-agent', {
    'helpdesk.service.ts': await example('helpdesk/code/helpdesk.service.ts'),
    'agents/open-ticket.sh': await example('served/agents/open-ticket.sh'),
    'shell/no-faults.yaml': shell('shell-no-faults', '[]').replace('./helpdesk', '../helpdesk'),
    'shell/partial-write.yaml': shell(
      'shell-partial-write',
      '[{ match: { tool: open_ticket, attempt: 1 }, fault: { kind: partial_write, lostAs: network } }]',
    ).replace('./helpdesk', '../helpdesk'),
    'shell/rate-limit.yaml': shell(
      'shell-rate-limit',
      '[{ match: { tool: open_ticket, attempt: 1 }, fault: { kind: rate_limit, retryAfter: 1 } }]',
    ).replace('./helpdesk', '../helpdesk'),
    'bad/missing.yaml': bad('missing', '[definitely-not-a-program-faultline]'),
    'bad/exits-at-once.yaml': bad('exits-at-once', `[sh, -c, 'echo boom >&2; exit 3']`),
    'bad/never-exits.yaml': bad('never-exits', `[sleep, '30']`, 700),
    'bad/garbage.yaml': bad('garbage', `[sh, -c, 'echo not json > "$FAULTLINE_RESULT"']`),
    'bad/wrong-shape.yaml': bad('wrong-shape', `[sh, -c, 'echo "{\\"outcome\\":\\"done\\"}" > "$FAULTLINE_RESULT"']`),
    'bad/grandchild.yaml': bad(
      'grandchild',
      `[sh, -c, 'sleep ${MARK} & echo "{\\"outcome\\":\\"completed\\"}" > "$FAULTLINE_RESULT"']`,
    ),
    'bad/setsid.yaml': bad(
      'setsid',
      `[sh, -c, 'setsid sleep ${SETSID_MARK} >/dev/null 2>&1 & echo "{\\"outcome\\":\\"completed\\"}" > "$FAULTLINE_RESULT"']`,
    ),
    'bad/env-cleared.yaml': bad(
      'env-cleared',
      `[sh, -c, 'env -i sh -c ''setsid sleep ${ENV_CLEARED_MARK} >/dev/null 2>&1 & sleep 0.5''; echo "{\\"outcome\\":\\"completed\\"}" > "$FAULTLINE_RESULT"']`,
    ),
    'bad/fifo.yaml': bad('fifo', `[sh, -c, 'mkfifo "$FAULTLINE_RESULT"']`, 60_000),
    'cwd/missing.yaml': bad('missing-cwd', `[sh, -c, 'exit 0']`).replace('  argv:', '  cwd: ./no-such-folder\n  argv:'),
    'cwd/empty.yaml': bad('empty-cwd', `[sh, -c, 'exit 0']`).replace('  argv:', '  cwd: ""\n  argv:'),
    'bad/fine.yaml': bad('fine', `[sh, -c, 'echo "{\\"outcome\\":\\"completed\\"}" > "$FAULTLINE_RESULT"']`),
  });
  // The shell agent needs its cwd: the scenario files sit one folder below it.
  for (const f of ['no-faults', 'partial-write', 'rate-limit']) {
    const path = `${project.path}/shell/${f}.yaml`;
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('  argv:', '  cwd: ..\n  argv:'));
  }
});

afterAll(() => project.cleanup());

describe('a command agent against the served world', () => {
  it('the curl agent passes every checker with faults off, under a partial write and under a 429 with Retry-After', async () => {
    const r = await faultline(['run', 'shell', '--k', '2'], { cwd: project.path });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const name of ['shell-no-faults', 'shell-partial-write', 'shell-rate-limit'])
      expect(r.stdout).toMatch(new RegExp(`✓ ${name}\\s+1\\.000 .*2/2\\s+0\\s+0`));
    expect(r.stdout).toMatch(/real time: shell-no-faults, shell-partial-write, shell-rate-limit ran on the wall clock/);
    // Their times are wall time, and every report says so: none calls them virtual.
    const summary = await readFile(`${project.path}/reports/summary.md`, 'utf8');
    for (const text of [r.stdout, summary]) {
      expect(text).toMatch(/amplification \|? *p95 wall time/);
      expect(text).not.toMatch(/virtual time/);
    }
    const report = JSON.parse(await readFile(`${project.path}/reports/faultline.json`, 'utf8')) as {
      cells: { clock?: string }[];
    };
    expect(report.cells.map((c) => c.clock)).toEqual(['real', 'real', 'real']);
    // The partial write reached the service twice (the resend carried the key): amplification 2.
    expect(r.stdout).toMatch(/✓ shell-partial-write .* 2\.00 /);
    const replay = await inProcess(['replay', 'shell/partial-write.yaml', '--seed', '1', '--trial', '0'], {
      cwd: project.path,
    });
    expect(replay.code, replay.stdout).toBe(0);
    expect(replay.stdout).toMatch(/idempotency-key|Idempotency-Key|ticket-req-7/i);
    expect(replay.stdout).toMatch(/timing-dependent choices may differ/);
    const json = await inProcess(['replay', 'shell/rate-limit.yaml', '--seed', '1', '--trial', '0', '--json'], {
      cwd: project.path,
    });
    const history = JSON.parse(json.stdout) as { type: string; clock?: string; status?: number }[];
    expect(history[0]).toMatchObject({ type: 'trial_start', clock: 'real' });
    expect(history.filter((e) => e.type === 'response').map((e) => e.status)).toEqual([429, 201]);
  });

  it('each broken program ends its own trial with a clear verdict, never the run, and leaves nothing running', async () => {
    const r = await inProcess(['run', 'bad', '--k', '1', '--html'], { cwd: project.path });
    expect(r.code, r.stderr).toBe(1);
    // report.html draws the failing trials' timelines on the wall clock.
    const html = await readFile(`${project.path}/reports/report.html`, 'utf8');
    expect(html).toContain('"clock":"wall"');
    expect(html).not.toContain('"clock":"virtual"');
    expect(r.stdout).toMatch(/✓ fine\s/);
    const failure = (name: string): string =>
      new RegExp(`✗ ${name} × rulebook: .*\\n\\s+trial 0: (.*)`).exec(r.stdout)?.[1] ??
      `no failure line for ${name} in:\n${r.stdout}`;
    expect(failure('missing')).toMatch(
      /goal-state: the agent crashed before finishing: the agent command \(definitely-not-a-program-faultline\) could not start: spawn definitely-not-a-program-faultline ENOENT/,
    );
    expect(failure('exits-at-once')).toMatch(
      /goal-state: the agent ended with outcome failed, expected completed; the agent said: "exited with code 3 and wrote no FAULTLINE_RESULT; stderr: boom"/,
    );
    expect(failure('never-exits')).toMatch(
      /the agent hung: the agent command \(sleep 30\) did not exit within timeoutMs 700 ms \(real time\); its process group was sent SIGTERM/,
    );
    expect(failure('garbage')).toMatch(
      /FAULTLINE_RESULT is not JSON \("not json"\); expected one JSON line \{"outcome": "completed" \| "failed"/,
    );
    expect(failure('wrong-shape')).toMatch(
      /FAULTLINE_RESULT holds "\{\\"outcome\\":\\"done\\"\}": outcome: Invalid option/,
    );
    expect(failure('grandchild')).toMatch(
      new RegExp(
        `process-cleanup: cmd-1 \\(sh -c sleep ${dots(MARK)} & .*\\) left a process alive at the trial's end: its command ended \\(exited\\)`,
      ),
    );
    // The exit code and stderr of a program that wrote no report are in its history.
    const replay = await inProcess(['replay', 'bad/exits-at-once.yaml', '--seed', '1', '--trial', '0'], {
      cwd: project.path,
    });
    expect(replay.stdout).toMatch(/exited with code 3 and wrote no FAULTLINE_RESULT; stderr: boom/);
    // A grandchild in a session of its own is found all the same, named, and killed.
    expect(failure('setsid')).toMatch(
      new RegExp(
        `process-cleanup: cmd-1 \\(sh -c setsid sleep ${dots(SETSID_MARK)} .*\\) left a process alive at the trial's end: its command ended \\(exited\\); 1 of its processes had left its process group \\(setsid or a double fork\\): sleep; kill the whole process tree`,
      ),
    );
    // One that cleared its environment too (no marker to find it by) was seen in the agent's tree while it ran.
    expect(failure('env-cleared')).toMatch(
      new RegExp(
        `process-cleanup: cmd-1 \\(sh -c env -i sh -c 'setsid sleep ${dots(ENV_CLEARED_MARK)} .*\\) left a process alive at the trial's end: its command ended \\(exited\\); 1 of its processes had left its process group \\(setsid or a double fork\\): sleep; kill the whole process tree`,
      ),
    );
    // A FIFO in place of the report is refused at once, not waited on until the trial is judged hung.
    expect(failure('fifo')).toMatch(
      /goal-state: the agent crashed before finishing: the agent command \(sh -c mkfifo "\$FAULTLINE_RESULT"\) exited with code 0, and FAULTLINE_RESULT is a FIFO, not a regular file: it was not read/,
    );
    // The grandchildren were killed at the trial's end, in the group or out of it.
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => [MARK, SETSID_MARK, ENV_CLEARED_MARK].some((m) => l.includes(`sleep ${m}`)));
    expect(left).toEqual([]);
  });

  it('a cwd that is not a folder, or is empty, is refused at load, naming the file and the path', async () => {
    const [missing, empty] = await Promise.all(
      ['cwd/missing.yaml', 'cwd/empty.yaml'].map((file) => inProcess(['run', file, '--k', '1'], { cwd: project.path })),
    );
    expect([missing!.code, empty!.code], missing!.stdout + empty!.stdout).toEqual([2, 2]);
    expect(missing!.stderr).toMatch(
      /cwd\/missing\.yaml: invalid scenario "missing-cwd":\n {2}- agent\.cwd: ".*no-such-folder": no such folder; expected the folder the agent command starts in/,
    );
    expect(empty!.stderr).toMatch(
      /cwd\/empty\.yaml: invalid scenario "empty-cwd":\n {2}- agent\.cwd: Too small: expected string to have >=1 characters/,
    );
  });

  it('--config is refused for a scenario whose own command agent retries in its own code, as for a matrix agent', async () => {
    const r = await inProcess(
      ['compare', 'shell/no-faults.yaml', '--config', 'rulebook', '--config', 'naive', '--k', '1'],
      { cwd: project.path },
    );
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(
      "--config (rulebook, naive): the agent shell-no-faults's command agent makes its own calls and retries, so no retry configuration applies to it",
    );
  });
});
