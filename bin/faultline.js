#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so `npx faultline` works straight after
// `npm ci` with no build step. The CLI itself decides the exit code; this file only sets it.
import { register } from 'tsx/esm/api';

// A stop signal while the CLI loads is held, not lost: the CLI handles it as soon as it listens.
const pendingSignals = [];
const hold = (name) => pendingSignals.push(name);
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, hold);
register();
const { main, processIo } = await import('../src/cli/main.ts');
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(name, hold);
process.exitCode = await main(process.argv.slice(2), processIo(pendingSignals));
