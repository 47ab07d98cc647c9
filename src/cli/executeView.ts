import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { FaultlineError, FaultlineErrorCode } from '../core/errors.js';
import { renderRunHtml } from '../report/html/renderRunHtml.js';
import { parseJsonReport } from '../report/json.js';
import { renderHtmlReport } from '../report/html/renderHtmlReport.js';
import { sweepHtmlReport } from '../report/sweep/sweepHtml.js';
import { isSweepJson, parseSweepJson, type SweepJson } from '../report/sweep/sweepJson.js';
import { writeReportAtomic } from '../report/write.js';
import { ExitCode } from './exitCodes.js';
import type { Io, StopSignal } from './io.js';

export interface ViewRequest {
  /** The JSON report; report.html goes into its folder. */
  readonly report: string;
  readonly serve: boolean;
}

/** The sweep report `text` holds, or undefined when it is not one (then it is read as a run's). */
function sweepOf(text: string, source: string): SweepJson | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isSweepJson(value) ? parseSweepJson(value, source) : undefined;
}

async function readReport(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file (write one with "faultline run")'
        : code === 'EISDIR'
          ? 'a folder, expected a faultline.json'
          : String(code ?? e);
    throw new FaultlineError(FaultlineErrorCode.Usage, `${path}: ${why}`);
  }
}

/**
 * Renders report.html from the JSON report (always afresh, so it matches the JSON), prints its
 * path, and serves it with `serve`. A sweep.json is drawn as sweep.html beside it, the same way.
 */
export async function executeView(request: ViewRequest, io: Io): Promise<ExitCode> {
  const text = await readReport(request.report);
  const sweep = sweepOf(text, request.report);
  const html =
    sweep !== undefined
      ? renderHtmlReport(sweepHtmlReport(sweep))
      : renderRunHtml(parseJsonReport(text, request.report));
  const path = join(dirname(request.report), sweep !== undefined ? 'sweep.html' : 'report.html');
  try {
    await writeReportAtomic(path, html);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `${path}: cannot write the file (${code}); give a report in a folder you can write to, or copy it to one`,
    );
  }
  io.stdout.write(`${path}\n`);
  if (!request.serve) return ExitCode.Ok;
  await serve(html, io);
  return ExitCode.Ok;
}

/** Serves the page on 127.0.0.1 until a stop signal; only `/` and `/report.html` exist. */
async function serve(html: string, io: Io): Promise<void> {
  const body = Buffer.from(html, 'utf8');
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path !== '/' && path !== '/report.html') {
      res
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('not found: this server holds only /report.html\n');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  io.stdout.write(`serving on http://127.0.0.1:${port}/ (Ctrl-C stops)\n`);
  await new Promise<void>((resolve) => {
    const signals: StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const stop = (): void => {
      for (const s of signals) io.signals.off(s, stop);
      server.closeAllConnections();
      server.close(() => resolve());
    };
    for (const s of signals) io.signals.on(s, stop);
    if (io.pendingSignals && io.pendingSignals.length > 0) {
      io.pendingSignals.length = 0;
      stop();
    }
  });
}
