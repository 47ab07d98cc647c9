#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so `npx faultline` works straight after
// `npm ci` with no build step. The CLI itself decides the exit code; this file only sets it.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
