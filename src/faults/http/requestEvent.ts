import { canonicalJson, sha256, type HttpRequestFields, type NewEvent } from '../../core/index.js';
import { CALL_HEADER, SDK_RETRY_HEADER, type CallPosition, type TrackedRequest } from './CallTracker.js';
import type { HttpRequestData, HttpRoute } from './HttpRoute.js';
import { parseRequestBody } from './requestBody.js';

/**
 * The body's canonical digest: read by its `Content-Type` (JSON and forms by value, so key
 * order and spacing do not matter), any other body by its text; 16 hex digits of sha-256.
 */
export function bodyDigest(data: HttpRequestData): string {
  const body = parseRequestBody(data.body, data.headers['content-type']);
  return sha256(typeof body === 'string' ? `text:${body}` : canonicalJson(body)).slice(0, 16);
}

/**
 * The agent frameworks a model request's `User-Agent` names, read from what each sends:
 * `@langchain/openai` (`langchainjs-openai/1.0.0 (…)`), the AI SDK (`ai/6.0.325 ai-sdk/provider-utils/…`),
 * the OpenAI Agents SDK (`Agents/JavaScript 0.8.5`). Only the name is kept: versions and
 * platform details would make one seed's history differ between machines.
 */
const FRAMEWORKS: readonly (readonly [RegExp, string])[] = [
  [/^langchainjs(?:-azure)?-[a-z]+\//i, 'LangChain.js'],
  [/(?:^|\s)(?:ai\/\d|ai-sdk\/)/, 'AI SDK'],
  [/^Agents\/JavaScript\b/, 'OpenAI Agents SDK'],
];

export function frameworkOf(userAgent: string | undefined): string | undefined {
  return userAgent === undefined ? undefined : FRAMEWORKS.find(([pattern]) => pattern.test(userAgent))?.[1];
}

/** The `http_request` event for one arrival, before any fault is chosen. */
export function requestEvent(
  request: string,
  data: HttpRequestData,
  route: HttpRoute,
  position: CallPosition,
  digest: string,
): NewEvent {
  const key = data.headers['idempotency-key'];
  const clientCall = data.headers[CALL_HEADER];
  const retries = Number(data.headers[SDK_RETRY_HEADER] ?? NaN);
  const framework = route.kind === 'model' ? frameworkOf(data.headers['user-agent']) : undefined;
  const fields: HttpRequestFields = {
    request,
    tool: route.operation,
    kind: route.kind ?? 'tool',
    purpose: route.purpose ?? 'call',
    call: position.call,
    attempt: position.attempt,
    callNumber: position.callNumber,
    groupedBy: position.by,
    method: data.method.toUpperCase(),
    url: data.url,
    ...(key === undefined ? {} : { idempotencyKey: key }),
    bodyDigest: digest,
    ...(route.risk === undefined ? {} : { risk: route.risk }),
    ...(route.honoursKeys === undefined ? {} : { honoursKeys: route.honoursKeys }),
    ...(clientCall === undefined ? {} : { clientCall }),
    ...(Number.isInteger(retries) && retries >= 0 ? { sdkRetryCount: retries } : {}),
    ...(framework === undefined ? {} : { framework }),
  };
  return { type: 'http_request', ...fields };
}

/** What the call tracker reads of one request. */
export const trackedRequest = (data: HttpRequestData, route: HttpRoute, digest: string): TrackedRequest => ({
  operation: route.operation,
  purpose: route.purpose ?? 'call',
  kind: route.kind ?? 'tool',
  method: data.method,
  url: data.url,
  headers: data.headers,
  digest,
});
