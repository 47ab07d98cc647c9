/**
 * The worked Python agent (scenarios/examples/served): the official `openai` package against
 * faultline's served model API, its own urllib tool against the served helpdesk, started as a
 * `command` agent, from a user's project outside the repo: the first run through the real binary,
 * the other run and the replays in process (`./inProcess.ts`; each trial's Python is a process of
 * its own either way, and that start, importing openai, is most of a trial's time). Without
 * python3 and the pinned `openai` (scripts/ci-python.sh) they skip, saying in one line how to
 * install it; under CI (or with FAULTLINE_REQUIRE_PYTHON=1) they fail instead.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';
import { missingLine, PYTHON_OPENAI, pythonMissing, skipWithout } from '../setup/prerequisites.js';

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));

async function copied(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(join(EXAMPLES, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(EXAMPLES.length)] = await readFile(path, 'utf8');
  }
  return files;
}

let project: Awaited<ReturnType<typeof userProject>> | undefined;
/** The CLI's environment: `python3` found first as the interpreter itself (see `beforeAll`). */
let env: Record<string, string> = {};

const skip = skipWithout(PYTHON_OPENAI, pythonMissing());

beforeAll(async () => {
  if (skip) return;
  let python: string;
  try {
    python = (await run('python3', ['-c', 'import openai, sys; print(sys.executable)'])).stdout.trim();
  } catch (error) {
    throw new Error(missingLine(PYTHON_OPENAI, `python3 with the openai package (${String(error).split('\n')[0]})`));
  }
  // The example's own layout, so its relative paths (the helpdesk service, the agents' cwd) hold.
  project = await userProject('python-agent', {
    ...(await copied('served')),
    'helpdesk/code/helpdesk.service.ts': await readFile(join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts'), 'utf8'),
  });
  // Where `python3` is a version manager's shim (pyenv's is a bash script that runs `pyenv exec`),
  // each start pays for the shim: `python3 -c pass` took 2.8-3 s through it against 0.5 s direct on
  // a loaded 2-core machine (a trial: ~10 s, most of it importing openai). The scenarios keep
  // `argv: [python3, ...]`; the CLI finds the interpreter the shim would have chosen first on PATH.
  await mkdir(join(project.path, 'bin'));
  await symlink(python, join(project.path, 'bin', 'python3'));
  env = { PATH: `${join(project.path, 'bin')}:${process.env['PATH'] ?? ''}` };
});

afterAll(() => project?.cleanup());

describe.skipIf(skip)('a Python agent on the openai package, as a command agent', () => {
  it('passes every checker with faults off, under a partial write and under a 429 with Retry-After (and so does the curl agent)', async () => {
    const r = await faultline(['run', 'served', '--k', '1'], { cwd: project!.path, env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const name of [
      'served-python-no-faults',
      'served-python-partial-write',
      'served-python-rate-limit',
      'served-python-stream-cut',
      'served-shell-partial-write',
      'served-shell-rate-limit',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`✓ ${name}\\s+1\\.000 .*1/1\\s+0\\s+0`));
    }
    // The served model API streamed its answers as SSE to `stream=True`, and the plan cut the first one.
    const replay = await inProcess(['replay', 'served/python-stream-cut.yaml', '--seed', '1', '--trial', '0'], {
      cwd: project!.path,
      env,
    });
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/fault stream_cut\(afterEvents=2\) on http-1/);
    expect(replay.stdout).toMatch(
      /response to http-1: error 200 "the connection dropped mid-stream after 2 of (\d+) events \(stream_cut\)" \[stream: 2 of \1 events\]/,
    );
    expect(replay.stdout).toMatch(/response to http-2: ok 200 \[stream: (\d+) of \1 events\]/);
    expect(replay.stdout).toMatch(/agent ended: completed/);
  });

  it('its planted defects are caught by duplicates and retry-discipline, with the requests as evidence', async () => {
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'served/defects', '--k', '1', '--workers', '0'], { cwd: project!.path, env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ duplicates==0 failed in 1 of 2 cells: served-python-no-key × rulebook \(1\)/);
    expect(r.stdout).toMatch(
      /✗ served-python-no-key × rulebook: 1 of 1 trial failed \(goal-state, duplicates, retry-discipline\)/,
    );
    expect(r.stdout).toMatch(
      /✗ served-python-ignores-retry-after × rulebook: 1 of 1 trial failed \(retry-discipline\)\n\s+trial 0: retry-discipline: open_ticket .*\(http-\d+, POST https:\/\/helpdesk\.example\.test\/api\/tickets\) .* was sent \d+ms after the 429 answer to http-\d+ .* said Retry-After: 1 \(1000ms/,
    );
    const replay = await inProcess(['replay', 'served/defects/python-no-key.yaml', '--seed', '1', '--trial', '0'], {
      cwd: project!.path,
      env,
    });
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/✗ duplicates: helpdesk:req-7 .*2 times/);
    expect(replay.stdout).toMatch(
      /✗ retry-discipline: .*without an idempotency key \(requests http-\d+ at t=\d+ms, http-\d+ at t=\d+ms\)/,
    );
  });
});
