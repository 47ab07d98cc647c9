#!/usr/bin/env node
// Runs the compiled CLI in dist/ (what the package ships); tsx is loaded later, and only to
// import a user's .ts scenario, configuration or service files. In a checkout of the
// repository, `npm run build` writes dist/ (`npm test` and the test suite run it themselves).
// The CLI itself decides the exit code; this file only sets it.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'faultline: dist/cli/main.js is missing; in a checkout of faultline, run "npm run build" first\n',
  );
  process.exitCode = 3;
} else {
  // A stop signal while the CLI loads is held, not lost: the CLI handles it as soon as it listens.
  const pendingSignals = [];
  const hold = (name) => pendingSignals.push(name);
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, hold);
  const { main, processIo } = await import(entry.href);
  // main listens from its first, synchronous line; the holders go only after it does. Removing
  // a signal's last listener closes Node's handle for it, and a signal that came in while the
  // CLI's modules were evaluating, not yet handed to a listener, would be dropped with it.
  const running = main(process.argv.slice(2), processIo(pendingSignals));
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(name, hold);
  const code = await running;
  // Leave once the output is flushed, even if a user's module left a timer or a socket behind
  // (a scenario that starts a setInterval at import would otherwise keep a refused run alive).
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
  );
  process.exit(code);
}
