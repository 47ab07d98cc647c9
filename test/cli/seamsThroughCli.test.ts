/**
 * Issue 43's items that were fixed and tested below the CLI only: one case each through the CLI's
 * entry in this process (./inProcess.ts, the compiled code the binary runs), from a temp
 * project, asserting the exit code and what the user reads. The item's number is in each name.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';

let project: Awaited<ReturnType<typeof userProject>>;
beforeAll(async () => {
  project = await userProject('seams43', {});
});
afterAll(() => project.cleanup());

const cli = (args: readonly string[]) => inProcess(args, { cwd: project.path });
const write = (name: string, text: string) => writeFile(join(project.path, name), text);

const STEP =
  '      - name: order\n        tool: create_order\n' +
  '        input: { clientReference: ref-1, item: book, quantity: 1, amountCents: 1500 }\n';
/** A scripted scenario creating one order, with `extra` top-level YAML before its agent. */
const scripted = (name: string, extra = '', agentExtra = ''): string =>
  `name: ${name}\n${extra}agent:\n  kind: scripted\n${agentExtra}  task: Create order ref-1\n  plan:\n    steps:\n${STEP}`;

describe('issue 43, through the CLI', () => {
  it('#18: run --help says what --workers 0 gives up', async () => {
    const r = await cli(['run', '--help']);
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('0: one after the other in one process');
    expect(help).toContain('without isolation');
    expect(help).toContain('an exhausted heap or a native crash ends the run');
  });

  it('#50: http: on a scripted agent is refused at load, exit 2, naming the file and the key', async () => {
    await write('http-scripted.yaml', scripted('http-scripted', 'http: { adapter: nock }\n'));
    const r = await cli(['run', 'http-scripted.yaml', '--k', '1', '--out', 'out-50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('http-scripted.yaml');
    expect(r.stderr).toMatch(/http: sets how an "http" or "command" agent's HTTP calls are met/);
    expect(r.stderr).toContain('agent.kind is "scripted"');
  });

  it('#38: arrival uniform over 1e308 ms is refused at load (exit 2), not drawn forever', async () => {
    await write('arrival.yaml', scripted('arrival', 'agents: 2\narrival: { kind: uniform, overMs: 1e308 }\n'));
    const r = await cli(['run', 'arrival.yaml', '--k', '1', '--out', 'out-38']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('arrival.yaml');
    expect(r.stderr).toMatch(/arrival\.overMs: expected at most 9007199254740991 ms/);
  });

  it('#36: an mcp-proxy plan with a __proto__ key is refused (exit 2), naming the file and the path in it', async () => {
    await write('plan.yaml', '- match: { tool: add_note }\n  fault: { __proto__: { kind: timeout } }\n');
    const r = await cli(['mcp-proxy', '--plan', 'plan.yaml', '--report', 'out-36/proxy.json', '--', 'true']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('plan.yaml: [0].fault.__proto__: the key "__proto__" is not allowed');
  });

  it('#35: merge of a shard report with a cell outside the run is refused (exit 2), naming that file', async () => {
    await write('shard-a.yaml', scripted('shard-a'));
    await write('shard-b.yaml', scripted('shard-b'));
    for (const i of [1, 2]) {
      const r = await cli([
        'run',
        'shard-a.yaml',
        'shard-b.yaml',
        '--k',
        '2',
        '--shard',
        `${i}/2`,
        '--out',
        `shard-${i}`,
      ]);
      // A shard alone holds pass^k n/a, which the default gate fails (exit 1); it wrote its report.
      expect(r.code, r.stdout + r.stderr).toBeLessThan(2);
    }
    const file = join(project.path, 'shard-2', 'faultline.json');
    const report = JSON.parse(await readFile(file, 'utf8')) as { cells: { scenario: string }[] };
    expect(report.cells.length).toBeGreaterThan(0);
    report.cells[0]!.scenario = 'x-foreign';
    await writeFile(file, JSON.stringify(report));
    const merged = await cli(['merge', 'shard-1/faultline.json', 'shard-2/faultline.json', '--out', 'merged']);
    expect(merged.code).toBe(2);
    expect(merged.stderr).toMatch(/shard-2\/faultline\.json: a cell x-foreign × \S+ outside its own matrix/);
  });

  it('#22: a wrong_value path no declared answer has is refused at load (exit 2), naming the file and the path', async () => {
    await write(
      'shop.service.ts',
      `import { defineService, z } from 'faultline';
const Order = z.object({ status: z.enum(['open', 'paid']), note: z.string() });
export default defineService({
  name: 'shop',
  state: {},
  tools: {
    get_order: { description: 'One order.', risk: 'read', input: z.object({}).strict(), output: Order, run: () => ({ status: 'paid' as const, note: 'n' }) },
  },
});
`,
    );
    const lie = (name: string, path: string) =>
      `name: ${name}\nservices: [./shop.service.ts]\nfaults:\n  - match: { tool: get_order }\n` +
      `    fault: { kind: wrong_value, path: ${path} }\nagent:\n  kind: scripted\n  task: Read the order\n` +
      `  plan:\n    steps:\n      - { name: read, tool: get_order, input: {} }\n`;
    await write('lie-bad.yaml', lie('lie-bad', 'no.such.field'));
    const r = await cli(['run', 'lie-bad.yaml', '--k', '1', '--out', 'out-22']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lie-bad.yaml');
    expect(r.stderr).toContain(
      'faults[0].fault.path: "no.such.field": no answer of "get_order" has that field by its declared output',
    );
    // A path the output declares loads and runs.
    await write('lie-good.yaml', lie('lie-good', 'status'));
    const good = await cli(['run', 'lie-good.yaml', '--k', '1', '--out', 'out-22-good']);
    expect(good.code, good.stdout + good.stderr).toBeLessThan(2);
  });

  it('#37: a command agent with timeoutMs 1e10 runs to its end, not judged hung at once, with no TimeoutOverflowWarning', async () => {
    await write(
      'long-timeout.yaml',
      'name: long-timeout\nagent:\n  kind: command\n  task: Wait a little\n' +
        "  argv: [sh, -c, 'sleep 0.3']\n  timeoutMs: 10000000000\n",
    );
    const warnings: string[] = [];
    const onWarning = (w: Error): number => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const r = await cli(['run', 'long-timeout.yaml', '--k', '1', '--out', 'out-37']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('rulebook × long-timeout: 1/1 passed');
      expect(r.stdout + r.stderr).not.toMatch(/timed out|hung|timeoutMs/);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  // The one case on the binary: serve is long-lived and prints its addresses while it runs, which
  // the in-process entry shows only once it has ended.
  it('#42: serve takes a scenario without an agent block: it serves, and a trial ends on its end URL', async () => {
    await write('world.yaml', 'name: no-agent\nservices: [orders]\n');
    const serve = start(['serve', 'world.yaml', '--trials', '1'], { cwd: project.path });
    const endUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve.child.stdout!.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        const m = /FAULTLINE_END_URL=(\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      serve.child.once('close', () => reject(new Error(`serve ended before printing its addresses:\n${out}`)));
    });
    const ended = await fetch(endUrl, {
      method: 'POST',
      body: '{"outcome":"completed"}',
    });
    expect(ended.status).toBe(200);
    const r = await serve.done;
    expect(r.stderr).not.toMatch(/agent/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('FAULTLINE_ORDERS_URL=http://127.0.0.1:');
    expect(r.stdout).toContain('no-agent, seed 1, trial 0: passed');
  });
});
