import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { trialChecks, type Check } from './trialChecks.js';
import { trialFlags } from './trialFlags.js';

/**
 * The library's stale-status scenario through the real CLI: a lost create, a status read a
 * minute behind, and an agent that resubmits on the absence. The key decides the outcome. The
 * first run goes through the binary; the other two run the same entry in this process
 * (./inProcess.ts), which spares each a Node start and the CLI's modules.
 */

const KEYLESS = `name: keyless
description: "Reconciles unknown outcomes, but sends no idempotency key."
retryOn: [timeout, network, rate_limit, unavailable]
maxAttempts: 3
perCallTimeoutMs: 10000
deadlineMs: 120000
backoff: { kind: exponential, baseMs: 200, capMs: 10000, multiplier: 2, jitter: full }
retryAfter: { mode: honour, maxMs: 60000 }
retryBudget: 10
idempotency: { keys: none, writes: with-honoured-key }
reconcile: true
operationRecords: true
`;

let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  dir = await tempDir('stale-status');
  await writeFile(join(dir.path, 'keyless.yaml'), KEYLESS);
  // The same scenario, with an agent that reads again before acting on an absence.
  const library = await readFile(new URL('../../scenarios/order-stale-status-resubmit.yaml', import.meta.url), 'utf8');
  await writeFile(
    join(dir.path, 'verifying.yaml'),
    library
      .replace('name: order-stale-status-resubmit', 'name: stale-status-verifying')
      .replace('  kind: scripted\n', '  kind: scripted\n  behaviour: verifies-critical-reads\n'),
  );
});
afterAll(async () => {
  await dir.cleanup();
});

const checksOf = (out: string): Promise<Check[][]> => trialChecks(dir.path, out);

describe('order-stale-status-resubmit', () => {
  it("passes the keyed agent: the resubmit carries the operation's key and the service replays the first order", async () => {
    const r = await faultline(
      ['run', 'order-stale-status-resubmit', ...trialFlags({ k: 3, reporters: ['console'], out: 'keyed' })],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ order-stale-status-resubmit');
    expect(r.stdout).toMatch(/faults\[1\]\s+create_order status queries, stale, times 2\s+3\/3 trials/);
  });

  it('fails the keyless resubmitting agent with a duplicate that names the stale read as its cause', async () => {
    const r = await inProcess(
      [
        'run',
        'order-stale-status-resubmit',
        '--config',
        './keyless.yaml',
        ...trialFlags({ k: 3, reporters: ['console', 'json'], out: 'keyless' }),
      ],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/duplicates==0 failed in 1 of 1 cells: order-stale-status-resubmit × keyless \(3\)/);
    const trials = await checksOf('keyless');
    expect(trials.length).toBeGreaterThan(0);
    for (const checks of trials) {
      const dup = checks.find((c) => c.name === 'duplicates');
      expect(dup?.verdict.valid).toBe(false);
      expect(dup?.verdict.message).toMatch(
        /^orders:ref-400 was created 2 times .*resent without an idempotency key \(R22, R25\); caused by a stale read: create_order status query req-\d+ at t=\d+ms, as of t=-?\d+ms answered \{"state":"not_found"\} while the world held \{"state":"succeeded"/,
      );
    }
  });

  it('passes an agent that reads again before acting on the absence, even without a key', async () => {
    const r = await inProcess(
      [
        'run',
        './verifying.yaml',
        '--config',
        './keyless.yaml',
        ...trialFlags({ k: 3, reporters: ['console'], out: 'verifying' }),
      ],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ stale-status-verifying');
  });
});
