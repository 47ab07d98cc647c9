import { Command } from 'commander';
import type { CliContext } from '../context.js';

interface FromTraceOptions {
  readonly out?: string;
  readonly traceId?: string;
}

const EXAMPLES = `
Examples:
  $ faultline from-trace otel-traces.json --out scenarios/incident-42.yaml
  $ faultline from-trace collector-export.jsonl --trace-id 4bf92f3577b34da6a3ce929d0e0e4736

Reads OTLP/JSON traces (an ExportTraceServiceRequest, as OTLP/HTTP exporters send it, or the
Collector's file exporter's JSON lines) and writes a scenario that reproduces one trace: the
GenAI spans' tool calls as the stand-in model's script, the tools declared in a service module
beside it (<out>.service.mjs, input schemas inferred from the calls), the errors and slow
answers the tries met as the fault plan (a 429, 5xx or timeout on the N-th call of a tool: a
rule for that call and try), the writes that succeeded as the goal. Attributes it does not map
are kept as comments in the scenario; what it cannot map it says on stderr, one line each.
Bad input (no file, not JSON, not OTLP, no GenAI spans, an unknown --trace-id): exit 2.`;

/** `faultline from-trace FILE`: a production trace as a scenario. */
export function createFromTraceCommand(ctx: CliContext): Command {
  return new Command('from-trace')
    .description('turn an OTLP/JSON trace of an agent run (GenAI spans) into a scenario that reproduces it')
    .argument('<file>', 'an OTLP/JSON traces file')
    .option('--out <file>', 'the scenario file to write (default: trace-<trace id>.yaml here)')
    .option('--trace-id <id>', 'the trace to import, when the file holds several')
    .addHelpText('after', EXAMPLES)
    .action(async (file: string, flags: FromTraceOptions) => {
      const { executeFromTrace } = await import('../executeFromTrace.js');
      ctx.exitCode = await executeFromTrace(
        {
          file,
          ...(flags.out !== undefined && { out: flags.out }),
          ...(flags.traceId !== undefined && { traceId: flags.traceId }),
        },
        ctx.io,
      );
    });
}
