import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseGrep } from '../options.js';
import { addAgentFlag } from './projectFlags.js';

interface ListFlags {
  readonly configs?: boolean;
  readonly tools?: boolean;
  readonly json?: boolean;
  readonly grep?: RegExp;
  readonly configFile?: string;
  readonly agent?: string[];
}

const EXAMPLES = `
Examples:
  $ faultline list                  the built-in scenarios: name, title, rulebook rules
  $ faultline list --configs        the built-in retry configurations, of every kind
  $ faultline list my-scenarios/    scenarios in your own files or folders
  $ faultline list --tools my-scenarios/
                                    the tools of the services those scenarios use, built-in and your own
  $ faultline list -t rate-limit     only the scenarios whose name matches
  $ faultline list --json

With faultline.config.ts, list shows its scenarios (when no path is given) with its defaults
filled in, and the agents each runs under (its agents matrix; --agent picks).`;

/** A scenario's services by name; `all built-in` when it names none. */
const serviceNames = (services: readonly (string | { readonly name: string })[] | undefined): string[] =>
  services ? services.map((s) => (typeof s === 'string' ? s : s.name)) : ['(all built-in)'];

interface ScenarioRow {
  readonly name: string;
  readonly title: string;
  readonly rules: string[];
  readonly services: string[];
  /** The matrix agents the scenario runs under (faultline.config.ts's `agents`), when it has any. */
  readonly agents?: string[];
}

/** The first variant of each scenario: a matrix scenario loads once per agent, under one name. */
const firstOfEach = <S extends { readonly name: string }>(scenarios: readonly S[]): S[] =>
  scenarios.filter((s, i) => scenarios.findIndex((o) => o.name === s.name) === i);

/** A row per scenario, with the agents of its variants: the matrix, one line per scenario. */
function scenarioRows<
  S extends {
    readonly name: string;
    readonly title?: string | undefined;
    readonly rules: readonly string[];
    readonly services?: readonly (string | { readonly name: string })[] | undefined;
  },
>(scenarios: readonly S[], agentOf: (s: S) => string | undefined): ScenarioRow[] {
  return firstOfEach(scenarios).map((s) => {
    const agents = scenarios.filter((o) => o.name === s.name).flatMap((o) => agentOf(o) ?? []);
    return {
      name: s.name,
      title: s.title ?? '',
      rules: [...s.rules],
      services: serviceNames(s.services),
      ...(agents.length > 0 && { agents }),
    };
  });
}

/** `faultline list`: what can be run, by name. */
export function createListCommand(ctx: CliContext): Command {
  const cmd = new Command('list')
    .description('list the built-in scenarios (or, with --configs, the retry configurations)')
    .argument('[paths...]', 'scenario (or configuration) files or folders instead of the built-in ones')
    .option('--configs', 'list retry configurations instead of scenarios')
    .option('--tools', "list the tools of the scenarios' services (name, service, risk, description)")
    .option('--json', 'print JSON')
    .option(
      '-t, --grep <pattern>',
      'only scenarios (with --configs: configurations) whose name matches this regular expression',
      parseGrep,
    );
  return addAgentFlag(cmd, '')
    .option(
      '--config-file <file>',
      'the project config file to read (default: ./faultline.config.ts if there is one): its scenarios, defaults and agents',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: ListFlags) => {
      const [
        { loadConfigs, loadScenarios, matrixAgentOf, CONFIG_DIRS },
        { alignTable },
        { pickByGrep },
        { readProjectConfig },
      ] = await Promise.all([
        import('../../scenario/library.js'),
        import('../../report/table.js'),
        import('../grepScenarios.js'),
        import('../../config/readProjectConfig.js'),
      ]);
      const project = flags.configs ? undefined : await readProjectConfig(flags.configFile, flags.agent);
      const refs = paths.length > 0 ? paths : [...(project?.loaded.config.scenarios ?? [])];
      const scenariosOf = async (): Promise<Awaited<ReturnType<typeof loadScenarios>>> =>
        pickByGrep(await loadScenarios(refs, project?.project), flags.grep);
      if (flags.tools) {
        const { toolRows } = await import('../../scenario/toolRows.js');
        // A scenario's variants (one per matrix agent) share its services: its tools once.
        const tools = toolRows(firstOfEach(await scenariosOf()));
        if (flags.json) ctx.io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
        else {
          const header = ['tool', 'service', 'risk', 'description'];
          const rows = tools.map((t) => [t.tool, t.service, t.risk, t.description]);
          const table = alignTable([header, ...rows], ['left', 'left', 'left', 'left']);
          ctx.io.stdout.write(`${table.join('\n')}\n`);
        }
        return;
      }
      const rows = flags.configs
        ? pickByGrep(await loadConfigs(paths.length > 0 ? paths : CONFIG_DIRS), flags.grep, 'configuration').map(
            (c) => ({ name: c.name, kind: c.kind, description: c.description }),
          )
        : scenarioRows(await scenariosOf(), (s) => matrixAgentOf(s)?.name);
      if (flags.json) {
        ctx.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const matrix = rows.some((r) => 'agents' in r && r.agents !== undefined);
      const table = flags.configs
        ? [
            ['configuration', 'kind', 'description'],
            ...rows.map((r) => [r.name, 'kind' in r ? r.kind : '', 'description' in r ? r.description : '']),
          ]
        : [
            ['scenario', 'title', 'rules', 'services', ...(matrix ? ['agents'] : [])],
            ...rows.map((r) => [
              r.name,
              'title' in r ? r.title : '',
              'rules' in r ? r.rules.join(' ') : '',
              'services' in r ? r.services.join(' ') : '',
              ...(matrix ? ['agents' in r ? (r.agents ?? []).join(' ') : ''] : []),
            ]),
          ];
      ctx.io.stdout.write(`${alignTable(table, ['left', 'left', 'left', 'left', 'left']).join('\n')}\n`);
    });
}
