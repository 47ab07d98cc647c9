import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parseGrep } from '../options.js';

interface ListFlags {
  readonly configs?: boolean;
  readonly tools?: boolean;
  readonly json?: boolean;
  readonly grep?: RegExp;
}

const EXAMPLES = `
Examples:
  $ faultline list                  the built-in scenarios: name, title, rulebook rules
  $ faultline list --configs        the built-in retry configurations, of every kind
  $ faultline list my-scenarios/    scenarios in your own files or folders
  $ faultline list --tools my-scenarios/
                                    the tools of the services those scenarios use, built-in and your own
  $ faultline list -t rate-limit     only the scenarios whose name matches
  $ faultline list --json`;

/** A scenario's services by name; `all built-in` when it names none. */
const serviceNames = (services: readonly (string | { readonly name: string })[] | undefined): string[] =>
  services ? services.map((s) => (typeof s === 'string' ? s : s.name)) : ['(all built-in)'];

/** `faultline list`: what can be run, by name. */
export function createListCommand(ctx: CliContext): Command {
  return new Command('list')
    .description('list the built-in scenarios (or, with --configs, the retry configurations)')
    .argument('[paths...]', 'scenario (or configuration) files or folders instead of the built-in ones')
    .option('--configs', 'list retry configurations instead of scenarios')
    .option('--tools', "list the tools of the scenarios' services (name, service, risk, description)")
    .option('--json', 'print JSON')
    .option('-t, --grep <pattern>', 'only scenarios (with --configs: configurations) whose name matches this regular expression', parseGrep)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: ListFlags) => {
      const [{ loadConfigs, loadScenarios, CONFIG_DIRS }, { alignTable }, { pickByGrep }] = await Promise.all([import('../../runner/library.js'), import('../../report/table.js'), import('../grepScenarios.js')]);
      const scenariosOf = async (): Promise<Awaited<ReturnType<typeof loadScenarios>>> => pickByGrep(await loadScenarios(paths), flags.grep);
      if (flags.tools) {
        const { toolRows } = await import('../../runner/toolRows.js');
        const tools = toolRows(await scenariosOf());
        if (flags.json) ctx.io.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
        else ctx.io.stdout.write(`${alignTable([['tool', 'service', 'risk', 'description'], ...tools.map((t) => [t.tool, t.service, t.risk, t.description])], ['left', 'left', 'left', 'left']).join('\n')}\n`);
        return;
      }
      const rows = flags.configs
        ? pickByGrep(await loadConfigs(paths.length > 0 ? paths : CONFIG_DIRS), flags.grep, 'configuration').map((c) => ({ name: c.name, kind: c.kind, description: c.description }))
        : (await scenariosOf()).map((s) => ({ name: s.name, title: s.title ?? '', rules: [...s.rules], services: serviceNames(s.services) }));
      if (flags.json) {
        ctx.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const table = flags.configs
        ? [['configuration', 'kind', 'description'], ...rows.map((r) => [r.name, 'kind' in r ? r.kind : '', 'description' in r ? r.description : ''])]
        : [['scenario', 'title', 'rules', 'services'], ...rows.map((r) => [r.name, 'title' in r ? r.title : '', 'rules' in r ? r.rules.join(' ') : '', 'services' in r ? r.services.join(' ') : ''])];
      ctx.io.stdout.write(`${alignTable(table, ['left', 'left', 'left', 'left']).join('\n')}\n`);
    });
}
