import { FaultlineError, FaultlineErrorCode } from '../../core/errors.js';

/**
 * `--otlp-endpoint URL` as the URL traces are posted to: an http(s) URL; with no path (or `/`),
 * OTLP/HTTP's own `/v1/traces` is added, as the OpenTelemetry exporters read `OTEL_EXPORTER_OTLP_ENDPOINT`.
 */
export function otlpTracesUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `expected an http(s) URL (http://localhost:4318), got "${value}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `expected an http(s) URL (http://localhost:4318), got "${value}" (${url.protocol.replace(/:$/, '')})`,
    );
  if (url.username !== '' || url.password !== '')
    // The URL is printed in errors and progress: a password in it would reach the output.
    throw new FaultlineError(
      FaultlineErrorCode.Usage,
      `expected a URL without a user or password (a collector's credentials do not belong on the command line), got "${url.host}"`,
    );
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1/traces';
  return url;
}
