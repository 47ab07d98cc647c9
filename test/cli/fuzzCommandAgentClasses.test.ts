import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { fuzzSurfaces, type Case } from './surfaceCases.js';

/**
 * Issue 43's classes of a command agent's own process tree and files (#10, #11, #41) and of `serve`
 * without an agent block (#42), as drawn cases through the CLI's entry in this process: how each
 * case runs and what it must end as, ./surfaceCases.ts. A file of their own beside
 * fuzzNewSurfaces.test.ts, so that neither runs long.
 */

// A command agent's own process tree and files, drawn once (issue 43 #10, #11, #41).
const command = (name: string, argv: string, extra = ''): string =>
  `name: ${name}\n${extra}agent:\n  kind: command\n  task: t\n  argv: ${argv}\n  timeoutMs: 60000\ngoal:\n  outcome: [completed]\n`;
// This process's id in each sleep's mark, so a copy of the suite running beside this one is not taken for ours.
const OWN = String(process.pid % 10_000).padStart(4, '0');
const sleepsLeft = (mark: string): string[] =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(`sleep ${mark}`));

// #10: a grandchild that leaves the agent's group or session (setsid), clears its environment (env -i), is orphaned
// by a double fork, or several of these at once: found, named by process-cleanup (R19), and nothing left running.
const escapes = fc.sample(
  fc.record({
    wrappers: fc.subarray(['setsid', 'env -i', 'nohup'], { minLength: 1 }),
    doubleFork: fc.boolean(),
    lingerS: fc.constantFrom('0.3', '0.6'),
  }),
  // Seed 4 draws env -i with and without setsid, and a double fork.
  { numRuns: 3, seed: 4 },
);
const treeShapes: Case[] = escapes.map(({ wrappers, doubleFork, lingerS }, i): Case => {
  const mark = `19.${OWN}${i}`;
  const start = `${wrappers.join(' ')} sleep ${mark} >/dev/null 2>&1 &`;
  return {
    cls: `issue 43 #10: a grandchild under ${wrappers.join(' + ')}${doubleFork ? ', double-forked' : ''}`,
    files: {
      'tree.sh': `${doubleFork ? `( ${start} )` : start}\nsleep ${lingerS}\necho '{"outcome":"completed"}' > "$FAULTLINE_RESULT"\n`,
      's.yaml': command('tree', '[sh, tree.sh]'),
    },
    args: ['run', 's.yaml', '--k', '1', '--reporter', 'console'],
    code: 1,
    stdout: /process-cleanup: cmd-1 \(sh tree\.sh\) left a process alive at the trial's end/,
    also: () => expect(sleepsLeft(mark)).toEqual([]),
  };
});

// #11: FAULTLINE_RESULT replaced by a file that is not a regular one, directly or through a symlink: reported at
// once with what it is, never waited on until the trial is judged hung (timeoutMs is a minute).
const SPECIAL: Record<string, { make: string; says: string }> = {
  FIFO: { make: 'mkfifo "$T"', says: 'is a FIFO, not a regular file' },
  folder: { make: 'mkdir "$T"', says: 'is a folder, not a regular file' },
  'character device': { make: 'ln -s /dev/zero "$T"', says: 'is a character device, not a regular file' },
  socket: {
    make: `python3 -c 'import os, socket; socket.socket(socket.AF_UNIX).bind(os.environ["T"])'`,
    says: 'could not be read (ENXIO)',
  },
};
// Every kind, each reached directly or through a symlink as drawn.
const linkedKinds = fc.sample(fc.boolean(), { numRuns: Object.keys(SPECIAL).length, seed: 43 });
const specialFiles = Object.keys(SPECIAL).map((kind, i) => [kind, linkedKinds[i]!] as const);
const resultKinds: Case[] = specialFiles.map(([kind, linked]): Case => {
  const { make, says } = SPECIAL[kind]!;
  const target = linked ? '"$FAULTLINE_RESULT.target"' : '"$FAULTLINE_RESULT"';
  return {
    cls: `issue 43 #11: FAULTLINE_RESULT is a ${kind}${linked ? ' behind a symlink' : ''}`,
    files: {
      'special.sh':
        `rm -f "$FAULTLINE_RESULT"\nexport T=${target}\n${make}\n` +
        `${linked ? 'ln -s "$T" "$FAULTLINE_RESULT"\n' : ''}`,
      's.yaml': command('special', '[sh, special.sh]'),
    },
    args: ['run', 's.yaml', '--k', '1', '--reporter', 'console'],
    code: 1,
    stdout: new RegExp(
      `the agent command \\(sh special\\.sh\\) exited with code 0, and FAULTLINE_RESULT ${says.replace(/[()]/g, '\\$&')}`,
    ),
    also: (r) => expect(r.stdout).not.toMatch(/hung|did not exit/),
  };
});

// #41: a failed command agent's stderr, of drawn lines and size with a declared secret somewhere in it: the verdict
// shows its tail, bounded (5 lines, 300 characters), and no output holds the secret or a piece of it.
const SECRET = 'sk-live-4f9c2d7e1a8b6035';
const stderrs = fc.sample(
  fc.record({
    lines: fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 200 }), {
      minLength: 1,
      maxLength: 400,
      size: 'max',
    }),
    at: fc.option(fc.nat(), { nil: undefined }),
    around: fc.constantFrom(['', ''], ['token=', ''], ['"', '"'], ['', ` ${'x'.repeat(290)}`]),
  }),
  { numRuns: 3, seed: 43 },
);
// And always the worst place: the last line, 315 characters long, so that the cut falls inside the secret.
stderrs.push({ ...stderrs[0]!, at: undefined, around: ['', ` ${'x'.repeat(290)}`] });
const stderrTails: Case[] = stderrs.map(({ lines, at, around }, i): Case => {
  const all = [...lines];
  // No line drawn: last, where the 300-character cut may fall inside the secret.
  const where = at === undefined ? all.length : at % (all.length + 1);
  all.splice(where, 0, `${around[0]}${SECRET}${around[1]}`);
  return {
    cls: `issue 43 #41: a failed command agent's stderr of ${all.length} lines, its secret at line ${where + 1}`,
    files: {
      'stderr.txt': `${all.join('\n')}\n`,
      's.yaml': command(`noisy-${i}`, "[sh, -c, 'cat stderr.txt >&2; exit 3']", `secrets: ['${SECRET}']\n`),
    },
    // --workers 0: the tail and its redaction are the subject, which the isolation does not change, and a run on
    // workers would start a worker's host process and load faultline in it again (the agent is a process either way).
    args: [
      'run',
      's.yaml',
      '--k',
      '1',
      '--workers',
      '0',
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--out',
      'out',
    ],
    code: 1,
    stdout: /goal-state: the agent ended with outcome failed, expected completed; the agent said: "/,
    also: async (r, dir) => {
      const said = /the agent said: ("(?:[^"\\]|\\.)*")/.exec(r.stdout)?.[1];
      expect(said, r.stdout).toBeDefined();
      const tail = JSON.parse(said!) as string;
      expect(tail.split('\n').length).toBeLessThanOrEqual(5);
      expect(tail.length).toBeLessThanOrEqual(301);
      // Nor any 8 characters of it in a row, where a cut fell inside the secret.
      const pieces = Array.from({ length: SECRET.length - 7 }, (_, j) => SECRET.slice(j, j + 8));
      const outputs = [r.stdout, r.stderr, await readFile(join(dir, 'out/faultline.json'), 'utf8')];
      for (const text of outputs) for (const piece of pieces) expect(text).not.toContain(piece);
    },
  };
});

fuzzSurfaces('command agents (issue 43)', [...treeShapes, ...resultKinds, ...stderrTails]);

// #42: serve takes a world with no agent block (its agent would never be started): a drawn world of built-in
// services, with or without a fault, is served in process until a Ctrl-C (on the CLI's signal stand-in).
describe('issue 43 #42: serve of a drawn world without an agent block', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir('serve-no-agent');
  });
  afterAll(() => dir.cleanup());

  it('is served (no agent asked for, no command agent said to have run) and Ctrl-C ends it, exit 130', async () => {
    const worlds = fc.sample(
      fc.record({
        services: fc.subarray(['orders', 'email', 'calendar', 'payments', 'deploy', 'records', 'jobs'], {
          minLength: 1,
        }),
        fault: fc.boolean(),
      }),
      { numRuns: 3, seed: 43 },
    );
    for (const [i, { services, fault }] of worlds.entries()) {
      const faults = fault ? 'faults:\n  - { match: { call: 1 }, fault: { kind: timeout } }\n' : '';
      await writeFile(
        join(dir.path, `world-${i}.yaml`),
        `name: world-${i}\nservices: [${services.join(', ')}]\n${faults}`,
      );
      const signals = new EventEmitter();
      // Once serve listens for Ctrl-C; a moment later, so its trial is (most likely) open.
      signals.on('newListener', (name) => {
        if (name === 'SIGINT') setTimeout(() => signals.emit('SIGINT'), 500);
      });
      const r = await inProcess(['serve', `world-${i}.yaml`], { cwd: dir.path, signals });
      expect(r.code, JSON.stringify(r)).toBe(130);
      expect(r.stderr).not.toMatch(/agent/);
      expect(r.stdout).not.toContain('(a command agent)');
      expect(r.stdout).toContain(`real time: world-${i} was served on the wall clock to clients outside faultline`);
    }
  }, 60_000);
});
