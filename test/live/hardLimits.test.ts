/**
 * Limits that are hard limits (issue 43). `--max-cost` is a hard limit: with several trials in flight, the gateway prices each
 * answer as it arrives and sends no request once the answers (and those in flight, at the dearest
 * price seen) would pass the limit; the trials cut short end not judged, and the report says what
 * was spent. Against the fake provider on 127.0.0.1: the run with trials in flight through the
 * real binary, the cell of infra errors and its replay in process (test/cli/inProcess.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { faultline } from '../cli/faultline.js';
import { inProcess } from '../cli/inProcess.js';
import { liveHarness } from './liveHarness.js';
import { PRICED_CONFIG, pricedRunArgs } from './pricedRun.js';
import { httpAgentOpensTicket } from '../cli/ticketScenario.js';

const EXAMPLES = fileURLToPath(new URL('../../scenarios/examples/', import.meta.url));
const KEY = 'sk-live-test-0a1b2c3d4e5f6789';

const scenario = (baseUrl: string): string => `name: live-max-cost
services: [${join(EXAMPLES, 'helpdesk/code/helpdesk.service.ts')}]
model:
  api: openai
  baseUrl: ${baseUrl}
  name: house-llm
${httpAgentOpensTicket(join(EXAMPLES, 'sdk-agents/code/openaiAgent.ts'))}`;

interface Report {
  run: { trials: number; infraErrors?: number; stopped?: { reason: string; limit: number; spent: number } };
  cells: {
    trials: { index: number; status: string; recording?: string }[];
    verdicts: { status: string; end: { message?: string } }[];
  }[];
}

const { serve, project, report } = liveHarness('live-limits');

describe('--max-cost with trials in flight', () => {
  it('sends no request past the limit (within one answer), ends the trials in flight not judged, and says what was spent', async () => {
    // 1M input tokens per answer at $0.20 per million: $0.20 an answer, two answers a trial.
    const server = await serve({ latencyMs: 150, usage: { input: 1_000_000, output: 0 } });
    const dir = await project({
      'priced.yaml': scenario(server.url),
      'faultline.config.ts': PRICED_CONFIG,
    });
    const r = await faultline(pricedRunArgs(12, 4, 4), { cwd: dir, env: { OPENAI_API_KEY: KEY } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const answered = server.requests.length;
    // The first round goes out before any price is known (4 × $0.20); after it, in flight and spent stay within the limit plus one answer.
    expect(answered * 0.2).toBeLessThanOrEqual(1 + 0.2 + 1e-9);
    const json = await report<Report>(dir, 'out');
    expect(json.run.stopped).toEqual({
      reason: 'max-cost',
      limit: 1,
      spent: expect.closeTo(answered * 0.2, 9) as number,
    });
    expect(r.stderr).toMatch(/faultline: stopped at --max-cost 1 \(\$\d\.\d\d spent\)/);
    // A trial cut short by the limit is not judged as the agent's failure.
    expect(json.cells[0]!.verdicts.filter((v) => v.status === 'failed')).toEqual([]);
    for (const v of json.cells[0]!.verdicts.filter((x) => x.status === 'infra-error'))
      expect(v.end.message).toMatch(/not sent: the run stopped at --max-cost 1 .*not judged/);
  }, 120_000);
});

describe('a cell whose every trial was an infra error', () => {
  it('is shown as not judged, neither ✓ nor a count of 0 trials, and its trials are listed with their recordings, which replay as not judged (exit 4)', async () => {
    const down = await serve({ errorRate: 1, errors: ['503'] });
    const dir = await project({ 'down.yaml': scenario(down.url) });
    const r = await inProcess(
      [
        'run',
        'down.yaml',
        '--live',
        '--k',
        '2',
        '--workers',
        '0',
        '--live-retries',
        '0',
        '--reporter',
        'console',
        '--reporter',
        'markdown',
        '--reporter',
        'json',
        '--out',
        'out',
      ],
      { cwd: dir, env: { OPENAI_API_KEY: KEY, NO_COLOR: '1' } },
    );
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('0 trials (0 failed), 2 infra errors (not judged)');
    expect(r.stdout).toMatch(/\n {2}– live-max-cost .*n\/a: every trial was an infra error \(2\)/);
    expect(r.stdout).not.toMatch(/✓ live-max-cost/);
    const md = await readFile(join(dir, 'out', 'summary.md'), 'utf8');
    expect(md).toContain('0 trials (0 failed), 2 infra errors (not judged).');
    expect(md).toMatch(/\| ➖ live-max-cost \|.*\| n\/a: every trial was an infra error \(2\) \|/);
    // Which trials, with their recordings (issue 43: they were not listed), and each recording says it was not judged.
    for (const i of [0, 1]) {
      const recording = join('out', 'live', 'live-max-cost', 'rulebook', `trial-${i}.cassette.json`);
      expect(r.stdout).toContain(`infra error: live-max-cost × rulebook trial ${i}, its recording ${recording}`);
      expect(md).toContain(`infra error: live-max-cost × rulebook trial ${i}, its recording ${recording}`);
      const marked = JSON.parse(await readFile(join(dir, recording), 'utf8')) as { trial: { infraError?: string } };
      expect(marked.trial.infraError).toMatch(/the model provider failed 1 times \(0 retries\); last: it answered 503/);
    }
    const json = await report<Report>(dir, 'out');
    expect(json.cells[0]!.trials.map((t) => [t.index, t.status, t.recording])).toEqual(
      [0, 1].map((i) => [
        i,
        'infra-error',
        join('out', 'live', 'live-max-cost', 'rulebook', `trial-${i}.cassette.json`),
      ]),
    );
    // Replaying one judges nothing: it says so, with its own exit code (4).
    const again = await inProcess(
      [
        'replay',
        'down.yaml',
        '--trial',
        '1',
        '--cassette',
        join('out', 'live', 'live-max-cost', 'rulebook', 'trial-1.cassette.json'),
      ],
      { cwd: dir, env: { NO_COLOR: '1' } },
    );
    expect(again.stdout).toMatch(/this trial was not judged: the provider failed \(the model provider failed 1 times/);
    expect(again.code, again.stdout + again.stderr).toBe(4);
  }, 60_000);
});
