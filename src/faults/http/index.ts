// What both HTTP adapters share. Importing this never installs an interceptor: msw.ts and
// nock.ts do, and only when a session starts (nock patches node:http on import).
export { HttpFaults, type HttpFaultsOptions, type HttpService } from './HttpFaults.js';
export {
  matchRoute,
  HTTP_METHODS,
  type ErrorMapper,
  type ErrorRendering,
  type HttpMethod,
  type HttpRequestData,
  type HttpRoute,
  type RouteMatch,
  type RouteRequest,
  type ServeContext,
} from './HttpRoute.js';
export { parseForm, parseRequestBody, type FormValue } from './requestBody.js';
export { mergedInput } from './mergedInput.js';
export { ordersRoutes, serveStatus, serveTool, toolRoutes } from './toolRoutes.js';
export {
  answerOf,
  fetchFailed,
  isAnswer,
  reply,
  respond,
  socketError,
  type HttpAnswer,
  type HttpAnswerKind,
  type NetworkCode,
} from './HttpAnswer.js';
export { errorDataOf } from './errorDataOf.js';
export { ATTEMPT_HEADER, CALL_HEADER, CallTracker, SDK_RETRY_HEADER, type CallPosition } from './CallTracker.js';
export { interceptableFetch } from './ArrivalHolds.js';
export { runIntercepted, type InterceptedRunOptions } from './runIntercepted.js';
export {
  UNHANDLED_REQUEST_CODE,
  UNHANDLED_REQUEST_POLICIES,
  unhandledRequestError,
  type UnhandledRequestPolicy,
} from './UnhandledRequestPolicy.js';
export { createHttpTrial, DEFAULT_TRIAL_START, type HttpTrial, type HttpTrialOptions } from './createHttpTrial.js';
