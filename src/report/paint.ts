export type Paint = (text: string) => string;

export interface Painter {
  readonly red: Paint;
  readonly green: Paint;
  readonly bold: Paint;
  readonly dim: Paint;
}

/** ANSI styles, or none: decide with `colorEnabled`. */
export function painter(color: boolean): Painter {
  const sgr = (open: number, close: number): Paint => (color ? (t) => `\u001b[${open}m${t}\u001b[${close}m` : (t) => t);
  return { red: sgr(31, 39), green: sgr(32, 39), bold: sgr(1, 22), dim: sgr(2, 22) };
}

/** `✓` or `✗`, coloured. */
export const mark = (p: Painter, passed: boolean): string => (passed ? p.green('✓') : p.red('✗'));
