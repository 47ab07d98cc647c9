import { escapeHtml } from './htmlPage.js';

/** A line chart drawn on the server as inline SVG: it needs no script to show, and fetches nothing. */
export interface SvgLineChart {
  readonly id: string;
  readonly title: string;
  readonly x: string;
  readonly y: string;
  readonly series: readonly { readonly label: string; readonly points: readonly (readonly [number, number])[] }[];
}

const W = 640;
const H = 270;
const M = { left: 48, right: 12, top: 28, bottom: 64 };
const COLOURS = ['#b00020', '#1565c0', '#2e7d32', '#ef6c00', '#6a1b9a', '#00838f', '#5d4037', '#455a64'];

/** A round step that divides `max` into about `n` ticks. */
function tickStep(max: number, n: number): number {
  const raw = max / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * mag).find((s) => raw <= s) ?? 10 * mag;
}

const f = (n: number): string => String(Math.round(n * 10) / 10);

export function renderSvgLineChart(c: SvgLineChart): string {
  const xs = c.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = c.series.flatMap((s) => s.points.map((p) => p[1]));
  const xMax = Math.max(1, ...xs);
  const yStep = tickStep(Math.max(1, ...ys), 4);
  const yMax = Math.ceil(Math.max(1, ...ys) / yStep) * yStep;
  const xStep = tickStep(xMax, 8);
  const px = (x: number): number => M.left + (x / xMax) * (W - M.left - M.right);
  const py = (y: number): number => H - M.bottom - (y / yMax) * (H - M.top - M.bottom);
  const out: string[] = [
    `<svg id="${escapeHtml(c.id)}" class="svg-chart" viewBox="0 0 ${W} ${H}" role="img" ` +
      `aria-label="${escapeHtml(c.title)}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeHtml(c.title)}</title>`,
    `<text x="${M.left}" y="16" font-size="13" font-weight="600">${escapeHtml(c.title)}</text>`,
  ];
  for (let y = 0; y <= yMax + 1e-9; y += yStep) {
    out.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${f(py(y))}" y2="${f(py(y))}" stroke="#e5e5e5"/>`,
      `<text x="${M.left - 4}" y="${f(py(y) + 3)}" font-size="10" text-anchor="end">${f(y)}</text>`,
    );
  }
  for (let x = 0; x <= xMax + 1e-9; x += xStep)
    out.push(`<text x="${f(px(x))}" y="${H - M.bottom + 14}" font-size="10" text-anchor="middle">${f(x)}</text>`);
  out.push(
    `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#888"/>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - M.bottom + 28}" font-size="11" text-anchor="middle">${escapeHtml(c.x)}</text>`,
    `<text transform="translate(12 ${(M.top + H - M.bottom) / 2}) rotate(-90)" font-size="11" ` +
      `text-anchor="middle">${escapeHtml(c.y)}</text>`,
  );
  c.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    out.push(
      `<polyline class="series" data-label="${escapeHtml(s.label)}" fill="none" stroke="${colour}" ` +
        `stroke-width="1.6" points="${s.points.map(([x, y]) => `${f(px(x))},${f(py(y))}`).join(' ')}"/>`,
    );
    // The legend under the axis, one entry per series.
    const lx = M.left + (i % 4) * 148;
    const ly = H - 18 + Math.floor(i / 4) * 13;
    out.push(
      `<rect class="key" x="${lx}" y="${ly - 4}" width="12" height="3" fill="${colour}"/>`,
      `<text x="${lx + 16}" y="${ly}" font-size="10">${escapeHtml(s.label)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n');
}
