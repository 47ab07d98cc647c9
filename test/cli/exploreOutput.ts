/** What a test reads of `faultline explore`'s output and of the regression files it writes. */
import type { Finished } from './faultline.js';

/** The regression file explore says it wrote. */
export function writtenFile(r: Finished): string {
  const m = /^ {4}regression: (.+)$/m.exec(r.stdout);
  if (!m) throw new Error(`no regression line in:\n${r.stdout}\n${r.stderr}`);
  return m[1]!;
}

/** `faultline …` commands from a regression file's header, as argument lists. */
export function headerCommand(text: string, label: 'reproduce' | 'replay'): string[] {
  const m = new RegExp(`^(?:#|//) {3}${label}: +faultline (.+)$`, 'm').exec(text);
  if (!m) throw new Error(`no ${label} command in:\n${text}`);
  return m[1]!.split(' ');
}
