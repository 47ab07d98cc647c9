import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';
import { trialChecks, type Check } from './trialChecks.js';
import { trialFlags } from './trialFlags.js';

/**
 * The library's empty-search and truncated-list scenarios through the real CLI: the shipped agent
 * reads again before acting on what a read told it and passes; the same plan with the trusting
 * default (`careful`) acts on the lie and fails, with the lie named as the cause. The first run
 * goes through the real binary; the other runs (no code of the user's, the same path) run the
 * CLI's entry in this process (./inProcess.ts), which spares each a Node start.
 */

let dir: Awaited<ReturnType<typeof tempDir>>;

/** The library scenario with its agent's `verifies-critical-reads` line taken out, under a new name. */
async function trusting(name: string): Promise<void> {
  const library = await readFile(new URL(`../../scenarios/${name}.yaml`, import.meta.url), 'utf8');
  const line = '  behaviour: verifies-critical-reads\n';
  expect(library).toContain(line);
  await writeFile(
    join(dir.path, `${name}-trusting.yaml`),
    library.replace(`name: ${name}`, `name: ${name}-trusting`).replace(line, ''),
  );
}

beforeAll(async () => {
  dir = await tempDir('lies-scenarios');
  await trusting('order-empty-search-duplicate');
  await trusting('email-truncated-list-reminders');
});
afterAll(async () => {
  await dir.cleanup();
});

const checksOf = (out: string): Promise<Check[][]> => trialChecks(dir.path, out);

describe('order-empty-search-duplicate', () => {
  it('passes the shipped agent: it searches again before creating, finds the order and creates nothing more', async () => {
    const r = await faultline(
      ['run', 'order-empty-search-duplicate', ...trialFlags({ k: 3, reporters: ['console'], out: 'empty-verifying' })],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ order-empty-search-duplicate');
    expect(r.stdout).toMatch(/faults\[0\]\s+find_order_by_reference, empty, times 1\s+3\/3 trials/);
  });

  it('fails a trusting agent with a second order, and duplicates names the empty search as its cause', async () => {
    const r = await inProcess(
      [
        'run',
        './order-empty-search-duplicate-trusting.yaml',
        ...trialFlags({ k: 3, reporters: ['console', 'json'], out: 'empty-trusting' }),
      ],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /duplicates==0 failed in 1 of 1 cells: order-empty-search-duplicate-trusting × rulebook \(3\)/,
    );
    const trials = await checksOf('empty-trusting');
    expect(trials).toHaveLength(3);
    for (const checks of trials) {
      const dup = checks.find((c) => c.name === 'duplicates');
      expect(dup?.verdict.valid).toBe(false);
      expect(dup?.verdict.message).toMatch(
        /^orders:ref-500 was created 2 times .*; caused by a read answered empty: find_order_by_reference req-\d+ at t=\d+ms answered \[\] while the world held \[\{"orderId":"ord-1","clientReference":"ref-500"/,
      );
    }
  });

  it('claims nothing false when the second search is refused: the order placed stays claimed as placed (found by explore)', async () => {
    const library = await readFile(
      new URL('../../scenarios/order-empty-search-duplicate.yaml', import.meta.url),
      'utf8',
    );
    const refused = library
      .replace('name: order-empty-search-duplicate', 'name: second-search-refused')
      .replace(
        'faults:\n',
        'faults:\n  - match: { tool: find_order_by_reference, call: 2 }\n    fault: { kind: permission_denied, status: 403 }\n',
      );
    await writeFile(join(dir.path, 'refused.yaml'), refused);
    const r = await inProcess(
      ['run', './refused.yaml', ...trialFlags({ k: 2, reporters: ['console', 'json'], out: 'refused' })],
      { cwd: dir.path },
    );
    // A refused read is a person's to fix (R5): the agent hands off, which the goal does not expect;
    // but it says nothing false about the order it placed.
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/faults\[0\]\s+find_order_by_reference call 2, permission_denied\s+2\/2 trials/);
    const trials = await checksOf('refused');
    expect(trials).toHaveLength(2);
    for (const checks of trials) {
      expect(checks.find((c) => c.name === 'honesty')?.verdict.valid).toBe(true);
      expect(checks.find((c) => c.name === 'duplicates')?.verdict.valid).toBe(true);
      expect(checks.find((c) => c.name === 'goal-state')?.verdict.message).toMatch(
        /^the agent ended with outcome handoff, expected completed/,
      );
    }
  });
});

describe('email-truncated-list-reminders', () => {
  it('passes the shipped agent: it reads the list again before acting on each item and reminds all three', async () => {
    const r = await inProcess(
      ['run', 'email-truncated-list-reminders', ...trialFlags({ k: 3, reporters: ['console'], out: 'cut-verifying' })],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('✓ email-truncated-list-reminders');
    expect(r.stdout).toMatch(/faults\[0\]\s+list_outbox, truncated, times 1\s+3\/3 trials/);
  });

  it('fails a trusting agent that misses an invitee, and goal-state names the cut list', async () => {
    const r = await inProcess(
      [
        'run',
        './email-truncated-list-reminders-trusting.yaml',
        ...trialFlags({ k: 3, reporters: ['console', 'json'], out: 'cut-trusting' }),
      ],
      { cwd: dir.path },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /pass\^k>=1 failed in 1 of 1 cells: email-truncated-list-reminders-trusting × rulebook \(0\)/,
    );
    const trials = await checksOf('cut-trusting');
    expect(trials).toHaveLength(3);
    for (const checks of trials) {
      const goal = checks.find((c) => c.name === 'goal-state');
      expect(goal?.verdict.valid).toBe(false);
      expect(goal?.verdict.message).toMatch(
        // Shown where the two differ (issue 43): the lie's answer ends where the world still held msg-3.
        /^email\.sent happened 5 times, expected 6 .*; the agent was told a lie: a read answered truncated: list_outbox req-\d+ at t=\d+ms answered ….*\] while the world held ….*"emailId":"msg-3"/,
      );
      expect(checks.find((c) => c.name === 'duplicates')?.verdict.valid).not.toBe(false);
    }
  });
});
