import { Command } from 'commander';
import type { CliContext } from '../context.js';

interface SchemaFlags {
  readonly out?: string;
  readonly configSchema?: boolean;
}

const EXAMPLES = `
Examples:
  $ faultline schema --out faultline.schema.json
  $ faultline schema --config-schema --out retry-config.schema.json

Point your editor at it for completion and checks in scenario files, e.g. with the YAML
language server, as the first line of a scenario:
  # yaml-language-server: $schema=./faultline.schema.json`;

/**
 * The JSON Schema of scenario files (or configuration files: one branch per `kind`, the
 * reference runtime's with `kind` optional), as zod derives it from the validators themselves.
 */
export async function jsonSchemaOf(which: 'scenario' | 'config'): Promise<Record<string, unknown>> {
  const [{ z }, { ScenarioDataSchema }, { ExecutionConfigFileSchema }] = await Promise.all([
    import('zod'),
    import('../../scenario/scenario.js'),
    import('../../runtime/executionConfig.js'),
  ]);
  // `io: 'input'`: files are written before defaults are filled in, so defaulted fields are optional.
  const schema = z.toJSONSchema(which === 'scenario' ? ScenarioDataSchema : ExecutionConfigFileSchema, { io: 'input' });
  const title = which === 'scenario' ? 'faultline scenario' : 'faultline retry configuration';
  return { ...schema, title };
}

export function createSchemaCommand(ctx: CliContext): Command {
  return new Command('schema')
    .description('print the JSON Schema of scenario files, for editor completion')
    .option('--out <file>', 'write it to a file instead of stdout')
    .option(
      '--config-schema',
      'the schema of retry configuration files instead (every kind: runtime, cockatiel, p-retry)',
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: SchemaFlags) => {
      const text = `${JSON.stringify(await jsonSchemaOf(flags.configSchema ? 'config' : 'scenario'), null, 2)}\n`;
      if (flags.out === undefined) {
        ctx.io.stdout.write(text);
        return;
      }
      const [{ writeReportAtomic }, { assertWritableFile }] = await Promise.all([
        import('../../report/write.js'),
        import('../outputPaths.js'),
      ]);
      await assertWritableFile(flags.out, '--out');
      await writeReportAtomic(flags.out, text);
      ctx.io.stderr.write(`faultline: wrote ${flags.out}\n`);
    });
}
