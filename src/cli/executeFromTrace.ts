import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { scenarioFromTrace } from '../scenario/fromTrace/scenarioFromTrace.js';
import { writeReportAtomic } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import { assertWritableFile } from './outputPaths.js';
import type { Io } from './io.js';

export interface FromTraceFlags {
  readonly file: string;
  /** The scenario file to write (default: `trace-<first 8 hex of the trace id>.yaml` here). */
  readonly out?: string;
  readonly traceId?: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** `faultline from-trace FILE`: an OTLP/JSON trace of an agent's run, as a scenario and the service module of its tools. */
export async function executeFromTrace(flags: FromTraceFlags, io: Io): Promise<ExitCode> {
  if (flags.out !== undefined) await assertWritableFile(flags.out, '--out');
  let text: string;
  try {
    text = await readFile(flags.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new FaultlineError(
      FaultlineErrorCode.NotFound,
      `${flags.file}: cannot read the trace file (${code}); expected an OTLP/JSON traces file`,
    );
  }
  const stem = flags.out === undefined ? undefined : basename(flags.out, extname(flags.out));
  const name = stem !== undefined && SLUG.test(stem) ? stem : undefined;
  const first = scenarioFromTrace({
    text,
    file: flags.file,
    ...(flags.traceId !== undefined && { traceId: flags.traceId }),
    ...(name !== undefined && { name }),
    serviceModule: `./${stem ?? 'trace'}.service.mjs`,
  });
  const out = flags.out ?? `${first.name}.yaml`;
  const serviceFile = join(dirname(out), `${basename(out, extname(out))}.service.mjs`);
  // Without --out the name comes from the trace: read it once more with the module's real name.
  const result =
    flags.out === undefined
      ? scenarioFromTrace({
          text,
          file: flags.file,
          ...(flags.traceId !== undefined && { traceId: flags.traceId }),
          name: first.name,
          serviceModule: `./${basename(serviceFile)}`,
        })
      : first;
  if (flags.out === undefined) await assertWritableFile(out, '--out');
  await writeReportAtomic(serviceFile, result.serviceText);
  await writeReportAtomic(out, result.scenarioText);
  for (const note of result.notes) io.stderr.write(`faultline: from-trace: ${note}\n`);
  io.stderr.write(
    `faultline: wrote ${out} and ${serviceFile} (trace ${result.traceId})\n` +
      `  run it: faultline run ${out} --config naive   (and --config rulebook for the fixed behaviour)\n`,
  );
  return ExitCode.Ok;
}
