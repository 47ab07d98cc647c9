import { fuzzSurfaces, SCENARIO, type Case } from './surfaceCases.js';

/**
 * Bad input to a scenario's `crash` (issue 45): each refused at load with exit 2, naming the file,
 * the field's path and what was expected, in process through the CLI's entry (./surfaceCases.ts).
 */

const COMMAND = (crash: string): string => `name: crashing
services: [orders]
crash: ${crash}
agent:
  kind: command
  argv: [node, -e, '0']
`;

const HTTP = (crash: string): string => `name: crashing-http
services: [orders]
crash: ${crash}
agent:
  kind: http
  task: t
  module: ./agent.mjs
`;
const AGENT = "export default async () => ({ outcome: 'completed' });\n";

const refused = (cls: string, crash: string, stderr: RegExp): Case => ({
  cls: `crash ${cls}`,
  files: { 's.yaml': COMMAND(crash) },
  args: ['run', 's.yaml', '--k', '1'],
  code: 2,
  stderr,
});

const cases: Case[] = [
  refused('not an object', '3', /s\.yaml: invalid scenario "crashing":\n\s+- crash: .*expected object/),
  refused('without agent', '{}', /- crash\.agent: .*expected object/),
  refused('unknown key beside agent', '{ agent: { atMs: 1 }, runtime: {} }', /- crash: Unrecognized key: "runtime"/),
  refused('agent with no trigger', '{ agent: {} }', /- crash\.agent: expected exactly one trigger, .*; got none/),
  refused(
    'agent with two triggers',
    '{ agent: { afterEffectOf: create_order, afterCall: 2 } }',
    /- crash\.agent: expected exactly one trigger, .*; got afterEffectOf and afterCall/,
  ),
  refused(
    'agent with an unknown key',
    '{ agent: { afterEffect: create_order } }',
    /- crash\.agent: Unrecognized key: "afterEffect"/,
  ),
  refused(
    'afterEffectOf an unknown tool',
    '{ agent: { afterEffectOf: create_ordr } }',
    /- crash\.agent\.afterEffectOf: "create_ordr": no such tool in this scenario's services \(known: .*create_order/,
  ),
  refused('afterEffectOf empty', "{ agent: { afterEffectOf: '' } }", /- crash\.agent\.afterEffectOf: .*>=1 characters/),
  refused(
    'nth zero',
    '{ agent: { afterEffectOf: create_order, nth: 0 } }',
    /- crash\.agent\.nth: .*expected number to be >0/,
  ),
  refused(
    'nth a fraction',
    '{ agent: { afterEffectOf: create_order, nth: 1.5 } }',
    /- crash\.agent\.nth: .*expected int/,
  ),
  refused(
    'nth without afterEffectOf',
    '{ agent: { afterCall: 1, nth: 2 } }',
    /- crash\.agent\.nth: nth counts the effects of afterEffectOf, which is not set/,
  ),
  refused('afterCall zero', '{ agent: { afterCall: 0 } }', /- crash\.agent\.afterCall: .*expected number to be >0/),
  refused(
    'afterCall a string',
    "{ agent: { afterCall: 'two' } }",
    /- crash\.agent\.afterCall: .*expected number, received string/,
  ),
  refused('atMs negative', '{ agent: { atMs: -5 } }', /- crash\.agent\.atMs: .*expected number to be >=0/),
  {
    cls: 'crash.agent on a scripted agent',
    files: { 's.yaml': SCENARIO('scripted-crash', 'crash: { agent: { afterCall: 1 } }\n') },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr:
      /- crash\.agent: crashes and restarts your own agent \("command", "function" or "http"\); agent\.kind is "scripted"/,
  },
  // Function and http agents are crashed too: their bad values are refused as a command agent's are.
  ...[
    [
      'nth zero',
      '{ agent: { afterEffectOf: create_order, nth: 0 } }',
      /- crash\.agent\.nth: .*expected number to be >0/,
    ],
    ['atMs fractional', '{ agent: { atMs: 2.5 } }', /- crash\.agent\.atMs: .*expected int/],
    ['unknown tool', '{ agent: { afterEffectOf: nope } }', /- crash\.agent\.afterEffectOf: "nope": no such tool/],
  ].map(([cls, crash, stderr]): Case => ({
    cls: `crash of an http agent: ${String(cls)}`,
    files: { 's.yaml': HTTP(String(crash)), 'agent.mjs': AGENT },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: stderr as RegExp,
  })),
  {
    cls: 'crash.agent on a function agent: accepted, and fires',
    files: {
      's.mjs': `export default { name: 'fn-crash', services: ['orders'], crash: { agent: { afterCall: 1 } }, agent: { kind: 'function', task: 't', fn: async ({ tools }) => { await tools.find_order_by_reference({ clientReference: 'x' }); return { outcome: 'completed' }; } } };\n`,
    },
    args: ['run', 's.mjs', '--k', '1'],
    code: 0,
    stdout: /crash\.agent\s+after tool request #1\s+1\/1 trials/,
  },
  {
    cls: 'crash.agent on a crowd of http agents',
    files: { 's.yaml': `${HTTP('{ agent: { afterCall: 1 } }')}agents: 2\n`, 'agent.mjs': AGENT },
    args: ['run', 's.yaml', '--k', '1'],
    code: 2,
    stderr: /- crash\.agent: crashes one http agent; agents is 2 \(expected 1/,
  },
];

fuzzSurfaces('crash.agent', cases);
