/**
 * faultline/vitest from a user's side: a project outside the repository (faultline installed as npm lays it out,
 * vitest its own dependency) whose test files use every matcher, passing and failing,
 * `describeScenarios`, and `toMatchHistorySnapshot`, run by the real vitest binary. What is
 * checked is what the user reads: vitest's output, its failure locations, the snapshot file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, installedUserProject, lineOf, vitest as run } from './realVitest.js';

const fixture = (name: string): Promise<string> => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
// Each step starts vitest in a child on a machine that may be busy; nothing here is timed.
const SLOW = { timeout: 300_000 };

let project: { path: string; cleanup: () => Promise<void> };

const vitest = (args: readonly string[]): ReturnType<typeof run> => run(project.path, args);

beforeAll(async () => {
  project = await installedUserProject(
    'vitest-user',
    {
      'scenarios/unconfirmable.yaml': await fixture('unconfirmable.yaml'),
      'scenarios/unconfirmable-failure.yaml': (await fixture('unconfirmable.yaml'))
        .replace('name: order-unconfirmable', 'name: order-unconfirmable-failure')
        .replace('behaviour: careful', 'behaviour: unknown-as-failure'),
      'scenarios/secret.yaml': await fixture('secret.yaml'),
      'test/matchers.test.ts': await fixture('matchers.fixture.ts'),
      'test/describe.test.ts': await fixture('describe.fixture.ts'),
      'test/history.test.ts': await fixture('history.fixture.ts'),
    },
    ['vitest'],
  );
});
afterAll(async () => {
  await project?.cleanup();
});

describe('the matchers and describeScenarios in a user project', SLOW, () => {
  let out = '';
  let matchers = '';
  beforeAll(async () => {
    const r = await vitest(['test/matchers.test.ts', 'test/describe.test.ts']);
    out = r.out;
    expect(r.code, out).toBe(1);
    matchers = await fixture('matchers.fixture.ts');
  });

  it('passes every "passes:" test and fails every "fails:" one', () => {
    expect(out).toMatch(/Tests +10 failed \| 10 passed \(20\)/);
    for (const name of matchers.matchAll(/it\('(passes: [^']+)'/g)) expect(out).toContain(`✓ ${name[1]!}`);
    for (const name of matchers.matchAll(/it\('(fails: [^']+)'/g)) expect(out).toContain(`× ${name[1]!}`);
  });

  const located = (name: string, needle: string): string => {
    const report = failure(out, 'test/matchers.test.ts', name);
    // The code frame vitest prints first is the user's line, not faultline's.
    expect(report).toMatch(new RegExp(`\\n ❯ test/matchers\\.test\\.ts:${lineOf(matchers, needle)}:\\d+\\n`));
    expect(report).not.toMatch(/❯ .*faultline.*dist/);
    return report;
  };

  it.each([
    [
      'toPassCheck',
      "('fails: toPassCheck'",
      'expected every trial of order-partial-write-idempotent × naive to pass the retry-discipline checker (R5, R7, R9, R21, R23, R27: ',
      'retry-discipline: write call-1 (create_order) used 2 different idempotency keys',
      'faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0',
    ],
    [
      'toReachGoal',
      "('fails: toReachGoal'",
      'expected every trial of order-partial-write-idempotent × naive to pass the goal-state checker',
      'goal-state: orders.ord-1.status is "created", expected "paid"',
      'faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0',
    ],
    [
      'toRetryWithDiscipline',
      "('fails: toRetryWithDiscipline'",
      'to pass the retry-discipline checker',
      'one operation keeps one key (R23)',
      'faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0',
    ],
    [
      'toBeHonest',
      "('fails: toBeHonest'",
      'expected every trial of order-unconfirmable-failure × rulebook to pass the honesty checker',
      'honesty: the agent claims orders:ref-1 failed but the ledger holds order.created for it',
      'faultline replay scenarios/unconfirmable-failure.yaml --config rulebook --seed 1 --trial 0',
    ],
    [
      'toKeepSecrets',
      "('fails: toKeepSecrets'",
      'expected every trial of order-with-secret × rulebook to pass the secrets checker (R13: ',
      'secrets: secret #0 (pa…) appears in event',
      'faultline replay scenarios/secret.yaml --config rulebook --seed 1 --trial 0',
    ],
    [
      'toHaveNoDuplicateEffects',
      "('fails: toHaveNoDuplicateEffects'",
      'expected no duplicate effects in order-partial-write-idempotent × naive, found 2 in 2 of 2 trials',
      'duplicates: orders:ref-200 was created 2 times',
      'faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0',
    ],
    [
      'toStayWithinBudget',
      "('fails: toStayWithinBudget'",
      'expected retry-after-beyond-deadline × no-retry to stay within budget, 2 of 2 trials did not',
      'budget: the trial was stopped at t=120000ms for exceeding its time limit',
      'faultline replay retry-after-beyond-deadline --config no-retry --seed 1 --trial 0',
    ],
  ])(
    "%s fails at the user's line with the verdict, its evidence and the replay command",
    (matcher, needle, headline, verdict, replay) => {
      const report = located(`fails: ${matcher}`, needle);
      expect(report).toContain(headline);
      expect(report).toContain(verdict);
      expect(report).toMatch(/\n {4}evidence: \[\{/);
      expect(report).toContain(`replay: ${replay}`);
      // The secret itself never reaches the output, only its index and two characters.
      expect(report).not.toContain('pay-secret-7');
    },
  );

  it('toPassCheck names every checker when given an unknown one', () => {
    const report = located('fails: toPassCheck with an unknown name', "('fails: toPassCheck with an unknown name'");
    expect(report).toContain(
      'toPassCheck: no checker is named "retry-disciplin"; the checkers are goal-state, duplicates, budget, retry-discipline, amplification, model-retries, honesty, secrets, process-cleanup, recovery',
    );
  });

  it("toHavePassK with a confidence bound judges the interval's lower bound, and says how many trials it would take", () => {
    const report = located('fails: toHavePassK with a bound', "('fails: toHavePassK with a bound'");
    expect(report).toContain(
      'expected the lower 95% bound of pass^8 of read-timeout-retry × rulebook to be at least 0.9, got 0.611 (pass^8 1.000, 95% interval [0.611, 1.000]; 60 of 60 trials passed)',
    );
    expect(report).toContain('even with every trial passing, it takes at least 281 trials (this subject has 60)');
  });

  it("describeScenarios names each test scenario › configuration (k, seed), and locates a failure at its own call in the user's file", async () => {
    expect(out).toContain('✓ order-partial-write-idempotent › rulebook (k = 2, seed 1)');
    expect(out).toContain('× order-partial-write-idempotent › naive (k = 2, seed 1)');
    const report = failure(out, 'test/describe.test.ts', 'order-partial-write-idempotent › naive (k = 2, seed 1)');
    const line = lineOf(await fixture('describe.fixture.ts'), 'await describeScenarios(');
    expect(report).toMatch(new RegExp(`\\n ❯ test/describe\\.test\\.ts:${line}:\\d+\\n`));
    expect(report).not.toContain('describeScenarios.js');
    // Every gate that failed, each named once, then the evidence once.
    expect(report).toContain(
      'expected pass^2 of order-partial-write-idempotent × naive to be at least 1, got 0.000 (0 of 2 trials passed)\nexpected no duplicate effects in order-partial-write-idempotent × naive, found 2 in 2 of 2 trials\n',
    );
    expect(
      report.match(/replay: faultline replay order-partial-write-idempotent --config naive --seed 1 --trial 0/g),
    ).toHaveLength(1);
  });
});

describe('toMatchHistorySnapshot in a user project', SLOW, () => {
  const snap = (): Promise<string> =>
    readFile(join(project.path, 'test', '__snapshots__', 'history.test.ts.snap'), 'utf8');

  it('writes the snapshot, one line per event; matches it; fails with a diff when the trial changes; and -u rewrites it', async () => {
    const write = await vitest(['test/history.test.ts', '--update', 'new']);
    expect(write.code, write.out).toBe(0);
    expect(write.out).toMatch(/Snapshots +1 written/);
    const first = await snap();
    expect(first).toContain(
      'exports[`the idempotent order under the rulebook 1`] = `\n"+0.000s   trial 0 of order-partial-write-idempotent under rulebook (seed ',
    );
    expect(first).toMatch(/\n\+0\.000s {7}fault partial_write\(lostAs=timeout\) on req-1 \(rule 0\)\n/);
    expect(first).toMatch(/\n\+10\.\d{3}s {4}call-1 create_order attempt 2 \(req-2, key idem-\w+\)\n/);
    expect(first).toContain('\n✓ goal-state\n✓ duplicates\n');

    // As CI runs it: nothing is written, the snapshot must match.
    const match = await vitest(['test/history.test.ts', '--update', 'none']);
    expect(match.code, match.out).toBe(0);
    expect(match.out).not.toMatch(/Snapshots .*(written|updated)/);
    // Rewriting every snapshot gives the same bytes: the same seed, the same history.
    const rewrite = await vitest(['test/history.test.ts', '-u']);
    expect(rewrite.code, rewrite.out).toBe(0);
    expect(await snap()).toBe(first);

    // A regression: the agent now runs under the careless configuration.
    const test = join(project.path, 'test', 'history.test.ts');
    await writeFile(test, (await readFile(test, 'utf8')).replace("retryConfig: 'rulebook'", "retryConfig: 'naive'"));
    const changed = await vitest(['test/history.test.ts', '--update', 'none']);
    expect(changed.code).toBe(1);
    expect(changed.out).toContain('Snapshot `the idempotent order under the rulebook 1` mismatched');
    expect(changed.out).toMatch(/\n- .*trial 0 of order-partial-write-idempotent under rulebook/);
    expect(changed.out).toMatch(/\n\+ .*trial 0 of order-partial-write-idempotent under naive/);
    expect(changed.out).toMatch(/\n\+ .*✗ duplicates: orders:ref-200 was created 2 times/);
    expect(await snap()).toBe(first);

    const update = await vitest(['test/history.test.ts', '-u']);
    expect(update.code, update.out).toBe(0);
    expect(update.out).toMatch(/Snapshots +1 updated/);
    expect(await snap()).toContain('under naive');
  });
});
