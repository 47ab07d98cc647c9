/**
 * The CLI's own help, read from the commander program in process (`buildProgram`, as
 * `faultline <command> --help` prints it, without running anything): docs/cli.md is written
 * from it (`npm run docs:cli`) and the docs test holds the page to it.
 */
import { EventEmitter } from 'node:events';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import type { Io } from '../../src/cli/io.js';

function bufferIo(chunks: string[]): Io {
  const out = { write: (s: string) => (chunks.push(s), true) };
  return {
    stdout: out,
    stderr: out,
    env: {},
    signals: new EventEmitter(),
    exit: (code) => {
      throw new Error(`exit ${code}`);
    },
  };
}

/** The program, built as the CLI builds it, with its output going to `chunks`, 80 columns wide and without colour wherever it runs. */
export function program(chunks: string[] = []): Command {
  const root = buildProgram({ io: bufferIo(chunks), exitCode: 0 });
  for (const cmd of [root, ...root.commands])
    cmd.configureOutput({ getOutHelpWidth: () => 80, getOutHasColors: () => false });
  return root;
}

/** One subcommand, by name. */
export function command(name: string): Command {
  const found = program().commands.find((c) => c.name() === name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found;
}

/** Every long flag of a command (`--config`), without `--help`. */
export function longFlags(cmd: Command): string[] {
  return cmd.options.map((o) => o.long).filter((f): f is string => f !== undefined && f !== '--help');
}

/** The text `faultline [name] --help` prints: the usage, the options and the text after them. */
export function helpText(name?: string): string {
  const chunks: string[] = [];
  const root = program(chunks);
  const target = name === undefined ? root : root.commands.find((c) => c.name() === name);
  if (target === undefined) throw new Error(`no command ${name}`);
  target.outputHelp();
  return chunks.join('');
}

/** The subcommands' names, in the order `faultline --help` lists them. */
export const commandNames = (): string[] => program().commands.map((c) => c.name());

export const GENERATED_BEGIN =
  '<!-- generated from the commander program by `npm run docs:cli`: do not edit by hand -->';
export const GENERATED_END = '<!-- end of the generated help -->';

/** docs/cli.md's generated part: `faultline --help`, then each command's help under a heading of its own. */
export function cliReference(): string {
  const block = (title: string, text: string): string => `## ${title}\n\n\`\`\`text\n${text.trimEnd()}\n\`\`\`\n`;
  const parts = [
    block('faultline', helpText()),
    ...commandNames().map((name) => block(`faultline ${name}`, helpText(name))),
  ];
  return `${GENERATED_BEGIN}\n\n${parts.join('\n')}\n${GENERATED_END}`;
}

/** The text between the markers in a page, or undefined when it has none. */
export function generatedPart(page: string): string | undefined {
  const begin = page.indexOf(GENERATED_BEGIN);
  const end = page.indexOf(GENERATED_END);
  return begin < 0 || end < begin ? undefined : page.slice(begin, end + GENERATED_END.length);
}
