import { wallMs } from '../core/clock/RealClock.js';
import { isCi, type Io } from './io.js';

// A redraw per trial would cost more than the trial itself.
const REDRAW_MS = 80;

/** One redrawn line on stderr when it is a terminal (not in CI); nothing otherwise. */
export function progressLine(io: Io): { draw(text: string, now?: boolean): void; clear(): void } {
  const on = io.stderr.isTTY === true && !isCi(io.env);
  let last = -Infinity;
  let drawn = false;
  return {
    draw(text, force = false) {
      if (!on) return;
      const t = wallMs();
      if (!force && t - last < REDRAW_MS) return;
      last = t;
      const max = Math.max(20, (io.stderr.columns || 80) - 1);
      io.stderr.write(`\r\u001b[2K${[...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text}`);
      drawn = true;
    },
    clear() {
      if (drawn) io.stderr.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
