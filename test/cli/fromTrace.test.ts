/**
 * Issue 46, part 3: a trace this team's code did not write becomes a scenario. An agent on the
 * official openai SDK, traced by the OpenTelemetry SDK and @opentelemetry/instrumentation-openai,
 * runs against faultline's served stand-in and exports to a local OTLP/HTTP receiver; its failing
 * run (a resend without an idempotency key after a timeout) goes through `from-trace`, and the
 * scenario fails `duplicates` under faultline while the fixed agent passes it. The agent's run goes
 * through the real binary; the import and the runs of its scenario in process (./inProcess.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { faultline } from './faultline.js';
import { inProcess } from './inProcess.js';
import { userProject } from './userProject.js';
import { HELPDESK_SERVICE, incidentScenario, TRACED_AGENT } from './tracedSdkAgent.js';

const PACKAGES = [
  'openai',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/instrumentation',
  '@opentelemetry/instrumentation-openai',
];

let receiver: Server;
let endpoint: string;
const bodies: { type: string | undefined; body: string }[] = [];
let project: Awaited<ReturnType<typeof userProject>>;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push({ type: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
  project = await userProject(
    'from-trace',
    {
      'agent.cjs': TRACED_AGENT,
      'helpdesk.service.mjs': HELPDESK_SERVICE,
      'incident.yaml': incidentScenario(', --no-idempotency-key'),
    },
    PACKAGES,
  );
});
afterAll(async () => {
  await project.cleanup();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('faultline from-trace, on the trace of an SDK agent instrumented by the OpenTelemetry SDK', () => {
  it('turns the failing run into a scenario that fails duplicates, and that the fixed agent passes', async () => {
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint };
    const original = await faultline(['run', 'incident.yaml', '--k', '1', '--reporter', 'console'], {
      cwd: project.path,
      env,
    });
    expect(original.code, original.stderr).toBe(1);
    expect(original.stderr).toMatch(/✗ rulebook × incident: 0\/1 passed \(.*duplicates/);
    // The SDK's OTLP/HTTP exporter sent JSON: one request per ended span (SimpleSpanProcessor), kept as JSON lines.
    expect(bodies.length).toBeGreaterThan(3);
    expect(new Set(bodies.map((b) => b.type))).toEqual(new Set(['application/json']));
    await writeFile(join(project.path, 'trace.jsonl'), bodies.map((b) => `${b.body}\n`).join(''));

    const imported = await inProcess(['from-trace', 'trace.jsonl', '--out', 'imported.yaml'], { cwd: project.path });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('faultline: wrote imported.yaml and imported.service.mjs');
    expect(imported.stderr).toMatch(/invoke_agent support-agent.*invoke_agent is not mapped/);
    const text = await readFile(join(project.path, 'imported.yaml'), 'utf8');
    const scenario = parse(text) as Record<string, unknown> & { agent: { plan: unknown; task: string } };
    expect(scenario['faults']).toEqual([
      { match: { tool: 'open_ticket', call: 1, attempt: 1 }, fault: { kind: 'partial_write', lostAs: 'timeout' } },
    ]);
    expect(scenario.agent.plan).toEqual({
      steps: [{ tool: 'open_ticket', input: { requestId: 'req-42', subject: 'Printer on fire' } }],
    });
    expect(scenario['goal']).toEqual({ effects: { 'open_ticket.done': 1 } });
    // instrumentation-openai's attributes the import does not map are kept as comments.
    expect(text).toMatch(/^# {3}gen_ai\.response\.finish_reasons = /m);

    // The runs in process with `--workers 0`: what they claim is the verdict, which the isolation does not change, and
    // a run on workers would start a worker's host process and load faultline and the project's modules in it again.
    // The stand-in resending as the traced agent did (no key) duplicates the ticket; with a key it does not.
    const naive = await inProcess(['run', 'imported.yaml', '--config', 'naive', '--k', '1', '--workers', '0'], {
      cwd: project.path,
    });
    expect(naive.code, naive.stderr).toBe(1);
    expect(naive.stderr).toMatch(/✗ naive × imported: 0\/1 passed \(.*duplicates/);
    const rulebook = await inProcess(['run', 'imported.yaml', '--config', 'rulebook', '--k', '1', '--workers', '0'], {
      cwd: project.path,
    });
    expect(rulebook.code, rulebook.stderr).toBe(0);

    // The agent itself on the imported scenario: the model's calls from its script, the tools from its module.
    const withAgent = (flags: string): string =>
      stringify({
        ...scenario,
        name: 'imported-agent',
        model: { api: 'openai', plan: scenario.agent.plan },
        agent: { kind: 'command', task: scenario.agent.task, argv: ['node', 'agent.cjs', ...(flags ? [flags] : [])] },
      });
    await writeFile(join(project.path, 'fixed.yaml'), withAgent(''));
    await writeFile(join(project.path, 'defect.yaml'), withAgent('--no-idempotency-key'));
    const fixed = await inProcess(['run', 'fixed.yaml', '--k', '1', '--workers', '0'], { cwd: project.path, env });
    expect(fixed.code, fixed.stderr).toBe(0);
    const defect = await inProcess(['run', 'defect.yaml', '--k', '1', '--workers', '0'], { cwd: project.path, env });
    expect(defect.code, defect.stderr).toBe(1);
    expect(defect.stderr).toMatch(/✗ rulebook × imported-agent: 0\/1 passed \(.*duplicates/);
  });
});
