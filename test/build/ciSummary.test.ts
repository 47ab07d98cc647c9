/**
 * .ci/run's closing line (scripts/ciSummary.mjs): counted test case by test case from vitest's
 * JUnit report, skipped tests included, and under CI a skip fails the run, naming the test.
 * The report here is the shape vitest 4 writes: its <testsuites> has no `skipped` count, a test
 * under a failed beforeAll is <skipped/>, and the failed hook is a test case of its own.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'ciSummary.mjs');
const run = promisify(execFile);

const testCase = (name: string, body = '') =>
  `<testcase classname="test/a.test.ts" name="${name}" time="0.1">${body}</testcase>`;
const junit = (...cases: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="vitest tests" tests="${cases.length}" failures="0" errors="0" time="1">` +
  `<testsuite name="test/a.test.ts" tests="${cases.length}" skipped="0">${cases.join('\n')}</testsuite></testsuites>`;
const PASSED = testCase('ok');
const SKIPPED = testCase('needs a browser &gt; draws &lt;canvas&gt;', '<skipped/>');
const HOOK_FAILED = testCase(
  'secrets',
  '<failure message="Hook timed out" type="Error">Error: Hook timed out in 60000ms</failure>',
);

let dir: string;
let reports = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faultline-ci-summary-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function summary(
  xml: string | undefined,
  status: number,
  ci: boolean,
): Promise<{ code: number; stdout: string }> {
  const file = join(dir, `junit-${reports++}.xml`);
  if (xml !== undefined) await writeFile(file, xml);
  const env = { ...process.env, CI: ci ? 'true' : '' };
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, file, String(status)], { env });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('.ci/run closing line', () => {
  it('counts passed, failed and skipped test cases, and passes a clean run', async () => {
    expect(await summary(junit(PASSED, PASSED), 0, true)).toEqual({
      code: 0,
      stdout: '2 passed, 0 failed, 0 skipped\n',
    });
  });

  it('under CI, lists each skipped test by name, counts it as failed and fails the run', async () => {
    const r = await summary(junit(PASSED, SKIPPED), 0, true);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  skipped: test/a.test.ts > needs a browser > draws <canvas>\n');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed, 1 skipped');
  });

  it('outside CI, a skip is counted and shown but does not fail the run', async () => {
    expect(await summary(junit(PASSED, SKIPPED), 0, false)).toEqual({
      code: 0,
      stdout: '1 passed, 0 failed, 1 skipped\n',
    });
  });

  it('counts a failed hook as a failure, and a failed run with no report as one failure', async () => {
    expect((await summary(junit(PASSED, HOOK_FAILED), 1, false)).stdout).toBe('1 passed, 1 failed, 0 skipped\n');
    expect(await summary(undefined, 2, true)).toEqual({ code: 1, stdout: '0 passed, 1 failed, 0 skipped\n' });
  });
});
