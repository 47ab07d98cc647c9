import { Command } from 'commander';
import type { CliContext } from '../context.js';

const EXAMPLES = `
Examples:
  $ faultline view                                  renders reports/report.html from reports/faultline.json
  $ faultline view ci-artifacts/faultline.json --serve
  $ faultline view reports/sweep.json              renders reports/sweep.html from a sweep's report

report.html is one self-contained file (no network): open it from disk, or with --serve
from http://127.0.0.1:<port>/ where a file cannot open (a remote machine, a browser that
blocks file URLs). faultline never starts a browser itself. --serve runs until Ctrl-C
(exit code 130, as for any command stopped by SIGINT).`;

/** `faultline view [report]`: the run as a page, written next to its JSON report. */
export function createViewCommand(ctx: CliContext): Command {
  return new Command('view')
    .description('write report.html beside a JSON report and print its path (or serve it on localhost)')
    .argument(
      '[report]',
      'a faultline.json (or a sweep.json: sweep.html is written beside it)',
      'reports/faultline.json',
    )
    .option('--serve', 'serve report.html on 127.0.0.1 (a free port) and print the URL; Ctrl-C stops it')
    .addHelpText('after', EXAMPLES)
    .action(async (report: string, flags: { serve?: boolean }) => {
      const { executeView } = await import('../executeView.js');
      ctx.exitCode = await executeView({ report, serve: flags.serve === true }, ctx.io);
    });
}
