/**
 * faultline's main entry (`import … from 'faultline'`): what you write scenarios, services,
 * agents and the project config with, and what runs them. It fits on one screen on purpose:
 * the rest lives in named subpaths, each only re-exporting —
 * `faultline/report` (renderers, the JSON report, gates and intervals),
 * `faultline/runtime` (the execution layer under test and its configurations),
 * `faultline/testing` (the world, the built-in services, the schemas, the scripted model),
 * `faultline/vitest`, `faultline/msw`, `faultline/nock`, `faultline/testcontainers`.
 * Every export is documented in docs/api.md. Values first, then types.
 */

// Write: scenarios, services, agents, the project config
export { defineScenario } from '../scenario/scenario.js';
export { defineService, ServiceError } from '../world/index.js';
export { HttpError } from '../core/http.js';
/** The zod faultline is built with: one copy for your schemas and ours. */
export { z } from 'zod';
export { defineAgent } from '../agent/agentFunction.js';
export { defineHttpAgent } from '../agent/httpAgent.js';
/** Reads a scripted model's final answer (`{"outcome","message","claims"}` text) back, for agents on real SDKs. */
export { finalFromText } from '../model/api/conversation.js';
export { readToolResult } from '../model/api/readToolResult.js';
export { defineConfig } from '../config/defineConfig.js';

// Run: trials, the matrix, the library, the reference configuration, the checkers, pass^k
export { runTrial } from '../runner/trial.js';
export { runMatrix } from '../runner/run.js';
export { loadScenarios, loadConfigs } from '../scenario/library.js';
export { rulebookDefault } from '../runtime/config.js';
export { BUILTIN_CHECKERS } from '../checks/index.js';
export { passHatK, passAtK } from '../stats/passK.js';

// Errors
export { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/errors.js';

export type { Scenario, ScenarioInput, AgentSpec } from '../scenario/scenario.js';
export type {
  CommonServiceOptions,
  ServiceContext,
  ServiceDefinition,
  ServiceDefinitionInput,
  ServiceErrorInit,
  ServiceHttp,
  ServiceHttpError,
  ServiceHttpMethod,
  ServiceRef,
  ServiceRoute,
  ServiceRouteRequest,
  ToolDefinition,
  ToolSummary,
} from '../world/index.js';
export type { Distribution, DistributionKind } from '../core/distribution.js';
export type { Network, LegLatency } from '../faults/network.js';
export type { AgentContext, AgentFn, AgentFnResult } from '../agent/agentFunction.js';
export type { HttpAgentContext, HttpAgentFn, ModelEndpoint, ServiceEndpoint } from '../agent/httpAgent.js';
export type { ToolResult } from '../runtime/result.js';
export type { ToolReading, ToolReadingKind, ToolResultReader, ToolResultText } from '../model/api/readToolResult.js';
export type { FaultlineConfig } from '../config/defineConfig.js';
export type { TrialResult, TrialSummary, TrialStatus, TrialOptions, CheckResult } from '../runner/trial.js';
export type { RunResult, RunOptions, Cell, CellRefs, VerdictGroup, Shard } from '../runner/run.js';
export type { IsolationOptions } from '../runner/pool/runOnWorkers.js';
export type { CellMetrics } from '../stats/metrics.js';
export type { ConfigMetrics } from '../stats/configMetrics.js';
export type { TaskTally } from '../stats/passK.js';
export type { RetryConfig, RetryConfigInput, Backoff } from '../runtime/config.js';
export type { Fault, FaultKind } from '../faults/fault.js';
export type { FaultPlan, FaultRule, FaultMatch } from '../faults/plan.js';
export type { Checker } from '../checks/checker.js';
export type { Expectations, TrialEnd, TrialRecord } from '../checks/record.js';
export type { HistoryEvent, HistoryEventType, EventOf, Claim, ClaimBy } from '../core/events.js';
export type { Verdict } from '../core/verdict.js';
