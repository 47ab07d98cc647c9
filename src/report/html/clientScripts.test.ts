import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { chartJsSource } from './chartJsSource.js';
import { CLIENT_SCRIPT } from './clientScript.js';
import { RUN_CLIENT_SCRIPT } from './runHtmlClient.js';

/**
 * Every script a report page carries must at least parse: a syntax error leaves the page blank,
 * and only the Chromium tests (which need a browser) would see it. A merge once dropped one `)`
 * from report.html's script; this catches that class in the unit run.
 */
describe('the reports’ inline scripts', () => {
  it.each([
    ['report.html', RUN_CLIENT_SCRIPT],
    ['compare.html and sweep.html', CLIENT_SCRIPT],
    ['Chart.js as inlined', chartJsSource()],
  ])('%s parses as a script', (_page, source) => {
    expect(() => new Script(source)).not.toThrow();
  });
});
