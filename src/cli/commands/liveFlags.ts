import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_LIVE_RETRY, DEFAULT_MAX_CONNECTIONS } from '../../model/live/liveDefaults.js';
import { parseInteger } from '../options.js';

function parseAmount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`expected an amount greater than 0, such as 5 or 0.25; got "${value}"`);
  return n;
}

/** Beyond these, a typo rather than a plan: a provider allows far fewer connections, and retries this many wait minutes per request. */
const MAX_CONNECTIONS = 1024;
const MAX_LIVE_RETRIES = 20;

function parseBounded(value: string, min: number, max: number, what: string): number {
  const n = parseInteger(value, min, `${what}, from ${min} to ${max}`);
  if (n > max) throw new InvalidArgumentError(`expected ${what}, from ${min} to ${max}, got "${value}"`);
  return n;
}

/** The flags of a run whose model answers come from the real provider: `--live`, `--record` and their limits. */
export function addLiveFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--record',
        "--live, and then write the trials' recordings to the scenario's cassette (a request already " +
          'sent is answered as it was the first time)',
      ).conflicts('live'),
    )
    .addOption(
      new Option(
        '--live',
        "send every trial's model requests to the real endpoint (real pass^k of a real model); each " +
          "trial's exchanges are recorded beside the report",
      ),
    )
    .option(
      '--max-connections <n>',
      `with --live or --record: model requests in flight at once, over every trial and worker (default ${DEFAULT_MAX_CONNECTIONS})`,
      (v) => parseBounded(v, 1, MAX_CONNECTIONS, 'a number of connections'),
    )
    .option(
      '--max-infra-errors <n>',
      'with --live or --record: trials the model provider may fail on its own before the gates fail (default 0)',
      (v) => parseInteger(v, 0, 'a number of trials, 0 or more'),
    )
    .option(
      '--live-retries <n>',
      `with --live or --record: retries of a provider's 429, 5xx, timeout or dropped connection before ` +
        `the trial ends infra-error (default ${DEFAULT_LIVE_RETRY.retries})`,
      (v) => parseBounded(v, 0, MAX_LIVE_RETRIES, 'a number of retries'),
    )
    .option(
      '--max-cost <amount>',
      'with --live or --record: send no model request once the answers have cost this much (the price ' +
        "table's currency); trials in flight end not judged, the partial reports are marked with how far over it went",
      parseAmount,
    );
}
