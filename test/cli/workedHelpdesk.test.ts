/**
 * The worked example in scenarios/examples/helpdesk, run the way its README says through the
 * real binary; the variation (a tool without a key) and its replay in process (`./inProcess.ts`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

const EXAMPLE = fileURLToPath(new URL('../../scenarios/examples/helpdesk/', import.meta.url));

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('helpdesk');
});
afterAll(() => dir.cleanup());

describe('worked example: a helpdesk service declared once, in process and over HTTP', () => {
  it("passes in process (scripted agent) and over HTTP (the team's unmodified fetch tool)", async () => {
    const r = await faultline(['run', EXAMPLE, '--k', '2'], { cwd: dir.path });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /✓ helpdesk-ticket-partial-write\s+1\.000 \[0\.16, 1\.00\]\s+1\.000 \[0\.03, 1\.00\]\s+1\.000 \[0\.29, 1\.00\]\s+2\/2\s+0/,
    );
    expect(r.stdout).toMatch(
      /✓ helpdesk-ticket-over-http\s+1\.000 \[0\.16, 1\.00\]\s+1\.000 \[0\.03, 1\.00\]\s+1\.000 \[0\.29, 1\.00\]\s+2\/2\s+0/,
    );
  });

  it('catches the tool without an Idempotency-Key: its resend opens a second ticket', async () => {
    const scenario = `name: helpdesk-no-key
services: [${join(EXAMPLE, 'code/helpdesk.service.ts')}]
faults:
  - match: { tool: open_ticket, attempt: 1 }
    fault: { kind: partial_write, lostAs: timeout }
agent:
  kind: http
  task: Open a ticket about the printer that is on fire.
  module: ${join(EXAMPLE, 'code/agent-without-key.ts')}
goal:
  effects: { ticket.opened: 1 }
`;
    await writeFile(join(dir.path, 'no-key.yaml'), scenario);
    // --workers 0: the verdicts are the claim, not isolation (the binary run uses a worker); spares a worker's start.
    const r = await inProcess(['run', 'no-key.yaml', '--k', '2', '--workers', '0'], { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ duplicates==0 failed in 1 of 1 cells: helpdesk-no-key × rulebook \(2\)/);
    expect(r.stdout).toMatch(/ticket\.opened happened 2 times, expected 1/);
    const replay = await inProcess(['replay', 'no-key.yaml', '--seed', '1', '--trial', '0'], { cwd: dir.path });
    expect(replay.stdout).toMatch(/✗ duplicates: helpdesk:req-42 was opened 2 times/);
  });
});
