import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultline, tempDir } from './faultline.js';
import { inProcess } from './inProcess.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('commands');
});
afterAll(() => dir.cleanup());

// Each case's first command runs the real binary; the rest run the CLI's entry in this process
// (./inProcess.ts), whose output and exit code are the binary's.
const cli = (args: readonly string[]) => inProcess(args, { cwd: dir.path });

const COMMANDS = ['run', 'compare', 'replay', 'list', 'schema'] as const;

describe('list, schema, help and usage errors', () => {
  it('lists the built-in scenarios and configurations', async () => {
    const [scenarios, configs] = await Promise.all([
      faultline(['list'], { cwd: dir.path }),
      cli(['list', '--configs']),
    ]);
    expect(scenarios.code).toBe(0);
    const rows = scenarios.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^scenario\s+title\s+rules\s+services$/);
    expect(rows).toHaveLength(1 + 19);
    expect(rows).toContainEqual(
      expect.stringMatching(/^read-timeout-retry\s+Order status under timeouts\s+R1 R4 R6\s+\(all built-in\)$/),
    );
    expect(configs.code).toBe(0);
    const [header, ...configRows] = configs.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^configuration\s+kind\s+description$/);
    const names = configRows.map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    // The top-level folder first (what compare runs by default), then the crowd folder's, every kind.
    expect(names.slice(0, 4)).toEqual([
      'full-jitter-budget runtime',
      'naive runtime',
      'no-retry runtime',
      'rulebook runtime',
    ]);
    expect(names).toEqual(
      expect.arrayContaining([
        'cockatiel-decorrelated cockatiel',
        'p-retry-randomized p-retry',
        'nested-three-layers runtime',
        'occ-full-jitter runtime',
      ]),
    );
    // 4 top-level, 16 crowd configurations (4 of them the metastability experiment's) and the 5 strategies of the backoff-and-jitter experiment.
    expect(names).toHaveLength(25);
  });

  it('prints the scenario JSON Schema, or writes it to a file', async () => {
    const [stdout, file] = await Promise.all([
      faultline(['schema'], { cwd: dir.path }),
      cli(['schema', '--config-schema', '--out', 'schemas/config.json']),
    ]);
    expect(stdout.code).toBe(0);
    const schema = JSON.parse(stdout.stdout) as {
      $schema: string;
      title: string;
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, unknown>;
    };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('faultline scenario');
    expect(schema.required.sort()).toEqual(['agent', 'name']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['faults', 'budget', 'goal', 'checks']));

    expect(file.code).toBe(0);
    expect(file.stdout).toBe('');
    const config = JSON.parse(await readFile(join(dir.path, 'schemas', 'config.json'), 'utf8')) as {
      $schema: string;
      title: string;
      anyOf: { properties: { kind: { const: string } } }[];
    };
    expect(config.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(config.title).toBe('faultline retry configuration');
    expect(config.anyOf.map((b) => b.properties.kind.const)).toEqual(['runtime', 'cockatiel', 'p-retry']);
  });

  it('shows --help with examples for the program and every command', async () => {
    const results = await Promise.all(
      [['--help'], ...COMMANDS.map((c) => [c, '--help'])].map((args, i) =>
        i === 0 ? faultline(args, { cwd: dir.path }) : cli(args),
      ),
    );
    const [top, ...each] = results;
    expect(top!.code).toBe(0);
    for (const c of COMMANDS) expect(top!.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    each.forEach((r, i) => {
      expect(r.code, COMMANDS[i]).toBe(0);
      expect(r.stdout, COMMANDS[i]).toContain(`Usage: faultline ${COMMANDS[i]} `);
      expect(r.stdout, COMMANDS[i]).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ faultline ${COMMANDS[i]}`));
    });
  });

  it('exits 2 on usage errors, saying what was wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['run', '--frobnicate'], /error: unknown option '--frobnicate'/],
      [['frobnicate'], /error: unknown command 'frobnicate'/],
      [[], /Usage: faultline/],
      [['run', '--k', 'many'], /option '--k <n>' argument 'many' is invalid\. expected a whole number of trials/],
      [['run', '--gate', 'pass^4=1'], /invalid gate "pass\^4=1"[\s\S]*gate grammar/],
      [
        ['run', '--reporter', 'pdf'],
        /unknown reporter "pdf" \(one of: console, dot, list, json, junit, markdown, html, otlp\)/,
      ],
      [['run', '--grep', 'no-such-scenario'], /--grep no-such-scenario matches no scenario/],
      [['replay'], /error: missing required argument 'scenario'/],
      [['list', '--configs', 'extra', 'args', '--json', '--nope'], /unknown option '--nope'/],
    ];
    const results = await Promise.all(
      cases.map(([args], i) => (i === 0 ? faultline(args, { cwd: dir.path }) : cli(args))),
    );
    results.forEach((r, i) => {
      const [args, pattern] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(pattern);
    });
  });
});
