import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { AGENT_OUTCOMES, type AgentOutcomeKind, type Claim } from '../../core/index.js';

/**
 * What a `command` agent writes, as one JSON line, to the file `FAULTLINE_RESULT` names:
 * `{"outcome":"completed","message":"…","claims":[{"subject":"orders:ref-1","status":"succeeded"}]}`.
 * The same report an agent function returns (R29: its claims are checked against the world).
 */
export const CommandResultSchema = z
  .object({
    outcome: z.enum(AGENT_OUTCOMES),
    message: z.string().optional(),
    claims: z
      .array(
        z
          .object({
            subject: z.string().regex(/^[^:]+:.+$/, 'a subject is service:businessKey'),
            status: z.enum(['succeeded', 'failed', 'unknown']),
            note: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

/** What the agent reported: nothing (no file), a valid report, or something unreadable, said plainly. */
export type CommandReport =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'reported';
      readonly outcome: AgentOutcomeKind;
      readonly message: string;
      readonly claims: readonly Claim[];
    }
  | { readonly kind: 'garbage'; readonly message: string };

const EXPECTED =
  `one JSON line {"outcome": ${AGENT_OUTCOMES.map((o) => `"${o}"`).join(' | ')}, ` +
  `"message"?: string, "claims"?: [{"subject": "service:key", "status": "succeeded" | "failed" | "unknown", "note"?: string}]}`;

const shown = (text: string): string => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** More than any report needs: a bigger file is not read (an agent could fill the disk's worth of it). */
const MAX_REPORT_BYTES = 1 << 20;

/** What a path that is not a regular file is, for the message. */
const kindOf = (s: Stats): string =>
  s.isFIFO()
    ? 'a FIFO'
    : s.isCharacterDevice()
      ? 'a character device'
      : s.isBlockDevice()
        ? 'a block device'
        : s.isSocket()
          ? 'a socket'
          : s.isDirectory()
            ? 'a folder'
            : 'not a file';

/**
 * Reads and validates the file the agent was told to write its report to. Opened without
 * blocking and checked to be a regular file before it is read: a FIFO no one writes (or a
 * device) put in its place would otherwise hold the trial forever.
 */
export async function readCommandReport(file: string): Promise<CommandReport> {
  let text: string;
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile())
      return { kind: 'garbage', message: `FAULTLINE_RESULT is ${kindOf(stats)}, not a regular file: it was not read` };
    if (stats.size > MAX_REPORT_BYTES)
      return {
        kind: 'garbage',
        message: `FAULTLINE_RESULT holds ${stats.size} bytes, more than a report's ${MAX_REPORT_BYTES}: it was not read`,
      };
    text = await handle.readFile('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    return {
      kind: 'garbage',
      message: `FAULTLINE_RESULT could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    };
  } finally {
    await handle?.close();
  }
  return readCommandLine(text);
}

/** A report as text: one JSON line, validated. */
export function readCommandLine(text: string): Exclude<CommandReport, { kind: 'none' }> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1)
    return {
      kind: 'garbage',
      message: `FAULTLINE_RESULT holds ${lines.length} lines (${shown(text)}); expected ${EXPECTED}`,
    };
  let value: unknown;
  try {
    value = JSON.parse(lines[0]!);
  } catch {
    return { kind: 'garbage', message: `FAULTLINE_RESULT is not JSON (${shown(lines[0]!)}); expected ${EXPECTED}` };
  }
  const parsed = CommandResultSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { kind: 'garbage', message: `FAULTLINE_RESULT holds ${shown(lines[0]!)}: ${issues}; expected ${EXPECTED}` };
  }
  const r = parsed.data;
  const claims: Claim[] = (r.claims ?? []).map((c) =>
    c.note === undefined
      ? { subject: c.subject, status: c.status }
      : { subject: c.subject, status: c.status, note: c.note },
  );
  return { kind: 'reported', outcome: r.outcome, message: r.message ?? '', claims };
}
