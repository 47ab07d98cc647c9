import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { TrialResult } from '../runner/trial.js';
import type { Io } from './io.js';

/** `mcp-serve --report`: the judged trials (verdicts and histories) of a session, as one JSON file. */
export function writeMcpServeReport(
  file: string,
  scenario: string,
  seed: number,
  judged: readonly TrialResult[],
  io: Io,
): void {
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  const trials = judged.map((t) => ({
    trialIndex: t.trialIndex,
    seed: t.seed,
    status: t.status,
    checks: t.checks,
    end: t.end,
    history: t.history,
    snapshot: t.snapshot,
  }));
  writeFileSync(out, `${JSON.stringify({ kind: 'faultline-mcp-serve', scenario, seed, trials }, null, 2)}\n`);
  io.stderr.write(`report: ${out}\n`);
}
