/*
 * Where JSON.parse gave up, said without the text: V8's message for an unexpected character quotes
 * up to twenty characters around it (`Unexpected token 'h', ..."assword": hunter2hun"...`), and a
 * trace file may hold credentials there (R13).
 */

const AT = / in JSON at position (\d+)$| at position (\d+)$/;

/** Whether parsing `prefix` fails before its end (not only because the text stops early). */
function failsInside(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('Unexpected end of JSON input')) return false;
    const at = AT.exec(message);
    return at === null || Number(at[1] ?? at[2]) < prefix.length;
  }
}

/**
 * The 0-based offset in `text` where `message` (JSON.parse's, for `text`) says parsing stopped: the
 * position the message gives, else the shortest prefix of `text` that fails before its end, found
 * by halving (every shorter prefix is valid JSON or stops early).
 */
export function jsonErrorOffset(text: string, message: string): number {
  const at = AT.exec(message);
  if (at !== null) return Number(at[1] ?? at[2]);
  if (message.startsWith('Unexpected end of JSON input')) return text.length;
  let valid = 0;
  let failing = text.length;
  while (failing - valid > 1) {
    const middle = Math.floor((valid + failing) / 2);
    if (failsInside(text.slice(0, middle))) failing = middle;
    else valid = middle;
  }
  return failing - 1;
}

/**
 * JSON.parse's complaint about `text` as `what, at line L, column C` (1-based; `at column C` for one
 * line of a file, `lead` the characters trimmed off its start), quoting none of the text.
 */
export function jsonErrorPlace(text: string, error: unknown, line?: { readonly lead: number }): string {
  const message = error instanceof Error ? error.message : String(error);
  const offset = jsonErrorOffset(text, message);
  const what = message.startsWith('Unexpected token')
    ? 'an unexpected character'
    : message.replace(AT, '').replace(/ of JSON input$/, '');
  if (line !== undefined) return `${what}, at column ${line.lead + offset + 1}`;
  const before = text.slice(0, offset);
  return `${what}, at line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}
