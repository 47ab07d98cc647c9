/** Finds Debian's chromium for the HTML report test; `FAULTLINE_REQUIRE_CHROMIUM=1` makes its absence a failure. */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env['FAULTLINE_CHROMIUM'] ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const chromiumRequired = process.env['FAULTLINE_REQUIRE_CHROMIUM'] === '1';

/** The flags that run headless here: no sandbox (root in a container), no GPU, nothing fetched in the background. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
