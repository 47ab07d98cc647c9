import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../../core/index.js';

let cached: string | undefined;

/**
 * Chart.js's UMD build, to inline into the page (no CDN: the report opens offline). Its
 * source-map comment is dropped (nothing to fetch), and any `</script` is escaped.
 *
 * @throws FaultlineError `FAULTLINE_INTERNAL` when chart.js is not installed.
 */
export function chartJsSource(): string {
  if (cached !== undefined) return cached;
  let file: string;
  try {
    // chart.js exports no ./package.json: find its folder through the CommonJS entry.
    file = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js');
  } catch (e) {
    throw new FaultlineError(
      FaultlineErrorCode.Internal,
      `the HTML report needs chart.js installed (npm install chart.js): ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  cached = readFileSync(file, 'utf8')
    .replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n')
    .replace(/<\/script/gi, '<\\/script');
  return cached;
}
