import { ignoresConfigs } from '../runner/notApplicable.js';
import { access } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { stringify } from 'yaml';
import { FaultlineErrorCode } from '../core/index.js';
import { loadFile, MODULE_EXTENSIONS } from '../scenario/loadFile.js';
import { isServiceModulePath } from '../scenario/loadService.js';
import { shellQuote } from '../runner/replay.js';
import { REDACTED, scrubSecrets } from '../core/secretText.js';
import type { ExploreFinding, ExploreResult } from './exploreResult.js';
import { describeBehaviour, type BehaviourSpec } from '../model/behaviours.js';
import { CRASH_RULE } from '../stats/coverage.js';

/** One failure class of a search, with the search it came from. */
type Failed = Pick<ExploreResult, 'scenario' | 'config' | 'seed' | 'runs'> & ExploreFinding;

export interface RegressionRefs {
  /** How a command line names the explored scenario and the configuration (built-in names, or paths from the working folder). */
  readonly scenario: string;
  readonly config: string;
  /** The folder the file goes to, as the user named it (relative to the working folder, or absolute). */
  readonly outDir: string;
  /** The file the explored scenario came from (absolute), or undefined for one built in code. */
  readonly source: string | undefined;
  /** `--runs` as given, for the explore command in the header. */
  readonly runs: number;
  /** The other explore flags that shaped the search (`--replace-faults`, `--check …`), for the same command. */
  readonly flags?: readonly string[];
  /** The matrix agent (faultline.config.ts's `agents`) the search ran: every command names it with `--agent`. */
  readonly agent?: string;
  /** The stand-in's behaviour the search gave the scenario (`--behaviour`): the file keeps it, so it fails as found. */
  readonly behaviour?: BehaviourSpec;
}

export interface RegressionFile {
  /** As the user's commands name it: under `outDir`, relative to the working folder when `outDir` is. */
  readonly file: string;
  readonly text: string;
  /** The command that must fail on it: `faultline run <file> --config C --seed S`. */
  readonly runCommand: string;
  readonly replayCommand: string;
}

/** A path from the regression's folder, in the `./x` or `../x` form scenario files use, with forward slashes. */
function fromFolder(folder: string, target: string): string {
  const rel = relative(folder, target).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * The regression scenario as a file: for a YAML or JSON scenario (or a built-in), the same
 * scenario in YAML with the new name, the shrunk faults and the judged checks, its paths
 * (services, agent module, cassette, tool-result reader) rewritten from the new folder; for a TypeScript or
 * JavaScript scenario, a module of the same kind that imports the original and overrides
 * those fields (an agent function cannot be written as data). A header says how to run it.
 */
export async function renderRegression(result: Failed, refs: RegressionRefs): Promise<RegressionFile> {
  const name = result.regression.name;
  const isModule =
    refs.source !== undefined && (MODULE_EXTENSIONS as readonly string[]).includes(extname(refs.source).toLowerCase());
  const ext = isModule ? moduleExtension(refs.source!) : '.yaml';
  const raw =
    isModule || refs.source === undefined
      ? {}
      : ((await loadFile(refs.source, FaultlineErrorCode.ScenarioInvalid)) as Record<string, unknown>);
  // A module keeps it in code; a YAML file where the stand-in is its own (else it came from the config file's
  // defaults, and the commands name the flag instead).
  const held = refs.behaviour === undefined || isModule || standInOf(raw);
  const behaviour = held ? '' : ` --behaviour ${shellQuote(describeBehaviour(refs.behaviour!))}`;
  const file = join(refs.outDir, `${name}${ext}`);
  const folder = resolve(refs.outDir);
  const shown = shellQuote(file);
  // An agent that retries in its own code takes no retry configuration: the commands name none (it would be refused).
  const config = ignoresConfigs(result.scenario) ? '' : ` --config ${shellQuote(refs.config)}`;
  const agent = refs.agent === undefined ? '' : ` --agent ${shellQuote(refs.agent)}`;
  const runCommand = `faultline run ${shown}${config} --seed ${result.seed}${agent}${behaviour}`;
  const replayCommand = `faultline replay ${shown}${config} --seed ${result.seed} --trial 0${agent}${behaviour}`;
  const own = result.regression.faults.length - result.plan.length;
  const scenarioFaults = own === 1 ? 'faults[0] is' : `faults[0..${own - 1}] are`;
  // Where the search drew crash points, the file's crash.agent is the search's too.
  const andCrash = result.crash !== undefined ? ' and crash.agent' : '';
  const whoseFaults =
    own === 0 ? `Its faults${andCrash} were` : `${scenarioFaults} the scenario's own; faults[${own}..]${andCrash} were`;
  const fired = result.fired.map((r) => {
    if (r.rule === CRASH_RULE) return `crash.agent (${r.label}) fired ${r.firings}×`;
    const times = r.firings > 0 ? `${r.firings}×` : 'never (kept for its draws: expect: may-not-fire)';
    return `faults[${own + r.rule}] fired ${times}`;
  });
  const header = [
    `A regression scenario written by \`faultline explore\`: ${result.scenario.name} under the ${result.config.name} configuration`,
    `fails (${result.trial.failed.join(', ')}; explored for ${result.failure}) with the fault plan below. ${whoseFaults} found by`,
    `fast-check and shrunk to the smallest plan that still fails, each shrink still firing its faults. In the failing trial:`,
    `${fired.join(', ')}.`,
    '',
    `  reproduce: ${runCommand}`,
    `  replay:    ${replayCommand}`,
    `  explore:   faultline explore ${shellQuote(refs.scenario)}${config} --seed ${result.seed} --runs ` +
      `${refs.runs}${agent}${(refs.flags ?? []).map((f) => ` ${shellQuote(f)}`).join('')} --path ${shellQuote(result.path)}`,
    '',
    `fast-check seed ${result.seed % 2 ** 31}, replay path "${result.path}": found at plan ` +
      `${result.foundAt} of ${result.runs} tried, ${result.shrinks} shrink step${result.shrinks === 1 ? '' : 's'}.`,
  ];
  const text = isModule
    ? moduleText(result, refs, folder, header)
    : await yamlText(result, { raw, source: refs.source, behaviour: refs.behaviour }, folder, header);
  // R13, for the file as a whole: a declared secret is nowhere in it (its title, a key, the header), whichever field held it.
  return { file, text: maskSecrets(text, result.scenario.secrets), runCommand, replayCommand };
}

const maskSecrets = (text: string, secrets: readonly string[]): string =>
  secrets.reduce((out, s) => (s.length > 0 ? out.split(s).join(REDACTED) : out), text);

const moduleExtension = (source: string): string =>
  extname(source).toLowerCase() === '.mts'
    ? '.mts'
    : extname(source).toLowerCase() === '.mjs'
      ? '.mjs'
      : extname(source).toLowerCase() === '.js'
        ? '.js'
        : '.ts';

/** Whether a scenario file's own data holds the stand-in: a scripted agent, or a model block. */
const standInOf = (raw: Record<string, unknown>): boolean =>
  (isRecord(raw['agent']) && raw['agent']['kind'] === 'scripted') || isRecord(raw['model']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function moduleText(result: Failed, refs: RegressionRefs, folder: string, header: readonly string[]): string {
  const source = refs.source!;
  // tsx resolves `.js` to the `.ts` beside it, and a user's tsc accepts it without allowImportingTsExtensions.
  const specifier = fromFolder(folder, source)
    .replace(/\.ts$/, '.js')
    .replace(/\.mts$/, '.mjs');
  const faults = JSON.stringify(result.regression.faults, null, 2).replaceAll('\n', '\n  ');
  return [
    ...header.map((l) => (l === '' ? '//' : `// ${l}`)),
    '',
    `import scenario from '${specifier}';`,
    '',
    'export default {',
    '  ...scenario,',
    `  name: '${result.regression.name}',`,
    ...(result.regression.seedName !== undefined ? [`  seedName: '${result.regression.seedName}',`] : []),
    `  faults: ${faults},`,
    ...(result.regression.crash !== undefined
      ? [`  crash: ${JSON.stringify(result.regression.crash)},`]
      : result.scenario.crash !== undefined
        ? ['  crash: undefined,']
        : []),
    `  checks: ${JSON.stringify(result.regression.checks)},`,
    ...behaviourLines(refs.behaviour),
    '};',
    '',
  ].join('\n');
}

/** The behaviour the search ran under, set on the imported scenario's stand-in (a scripted agent, a model block). */
function behaviourLines(spec: BehaviourSpec | undefined): string[] {
  if (spec === undefined) return [];
  const b = JSON.stringify(spec);
  return [
    `  // explored under --behaviour ${describeBehaviour(spec)}: the stand-in keeps it, so this file fails as found`,
    `  ...(scenario.agent?.kind === 'scripted' && { agent: { ...scenario.agent, behaviour: ${b} } }),`,
    `  ...(scenario.model && { model: { ...scenario.model, behaviour: ${b} } }),`,
  ];
}

async function yamlText(
  result: Failed,
  {
    raw,
    source,
    behaviour,
  }: { raw: Record<string, unknown>; source: string | undefined; behaviour: BehaviourSpec | undefined },
  folder: string,
  header: readonly string[],
): Promise<string> {
  const data: Record<string, unknown> = {
    name: result.regression.name,
    ...(result.regression.seedName !== undefined && { seedName: result.regression.seedName }),
    title: `${typeof raw['title'] === 'string' ? raw['title'] : result.scenario.name} (a regression found by faultline explore)`,
  };
  // R13: the file is kept in the repository; the secrets the scenario declares stay out of it (its task, inputs and
  // goal hold them redacted).
  const secrets = result.scenario.secrets;
  for (const [key, value] of Object.entries(raw)) {
    if (
      key === 'name' ||
      key === 'seedName' ||
      key === 'title' ||
      key === 'faults' ||
      key === 'checks' ||
      key === 'secrets'
    )
      continue;
    data[key] = scrubSecrets(value, secrets);
  }
  Object.assign(data, await movedPaths(raw, source, folder));
  // Explored under --behaviour: the stand-in keeps it in the file, so the file's run fails as the search's trial did.
  if (behaviour !== undefined) {
    if (isRecord(data['agent']) && data['agent']['kind'] === 'scripted')
      data['agent'] = { ...data['agent'], behaviour };
    if (isRecord(data['model'])) data['model'] = { ...data['model'], behaviour };
  }
  data['faults'] = result.regression.faults;
  // The shrunk crash point, or none where the search replaced the scenario's own with none.
  if (result.regression.crash !== undefined) data['crash'] = result.regression.crash;
  else delete data['crash'];
  data['checks'] = result.regression.checks;
  // The title (and anything added above) is scrubbed too: it may quote the scenario's own.
  const body = stringify(scrubSecrets(data, secrets), { lineWidth: 0 });
  const note =
    secrets.length > 0
      ? [
          '',
          `The scenario's secrets are left out, and redacted where they appeared: copy secrets: from ` +
            `${source === undefined ? result.scenario.name : fromFolder(folder, source)} to have the secrets checker look for them.`,
        ]
      : [];
  return `${[...header, ...note].map((l) => (l === '' ? '#' : `# ${l}`)).join('\n')}\n${body}`;
}

/** The scenario's paths (services, agent module or command folder, cassette, reader) rewritten from the regression's folder. */
async function movedPaths(
  raw: Record<string, unknown>,
  source: string | undefined,
  folder: string,
): Promise<Record<string, unknown>> {
  const from = source === undefined ? folder : dirname(source);
  const moved = (p: string): string => (isAbsolute(p) ? p : fromFolder(folder, resolve(from, p)));
  const out: Record<string, unknown> = {};
  if (Array.isArray(raw['services']))
    out['services'] = raw['services'].map((s: unknown) =>
      typeof s === 'string' && isServiceModulePath(s) ? moved(s) : s,
    );
  const agent = raw['agent'] as Record<string, unknown> | undefined;
  if (agent && typeof agent['module'] === 'string') out['agent'] = { ...agent, module: moved(agent['module']) };
  // A command runs in its file's folder (or `cwd`, from there): the regression's folder differs, so it names it.
  if (agent && agent['kind'] === 'command' && source !== undefined)
    out['agent'] = { ...agent, cwd: moved(typeof agent['cwd'] === 'string' ? agent['cwd'] : '.') };
  const model = raw['model'] as Record<string, unknown> | undefined;
  if (model && source !== undefined) {
    // The cassette beside the original is found by the original's file name: name it, since the regression's differs.
    const beside = join(dirname(source), `${basename(source, extname(source))}.cassette.json`);
    const cassette =
      typeof model['cassette'] === 'string'
        ? moved(model['cassette'])
        : (await exists(beside))
          ? fromFolder(folder, beside)
          : undefined;
    const reader = typeof model['readToolResult'] === 'string' ? moved(model['readToolResult']) : undefined;
    out['model'] = {
      ...model,
      ...(cassette !== undefined && { cassette }),
      ...(reader !== undefined && { readToolResult: reader }),
    };
  }
  return out;
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );
