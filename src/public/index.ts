/**
 * faultline's public API (`import … from 'faultline'`). Everything a user needs to write
 * scenarios and agents, run them and render the results; the CLI is built on the same calls.
 * Values first, then types, kept apart (`export type`) so the list reads as the API.
 */

// Scenarios and the run
export { defineScenario, ScenarioDataSchema, ScenarioSchema } from '../runner/scenario.js';
export { runTrial } from '../runner/trial.js';
export { runMatrix } from '../runner/run.js';
export { mergeRuns } from '../runner/mergeRuns.js';
export { loadScenarios, loadConfigs, LIBRARY_DIR, CONFIG_DIR, DEFAULT_CONFIG } from '../runner/library.js';
export { passHatK, passAtK } from '../runner/passK.js';
export { passIntervals, passIntervalsAt, passIntervalCurves, proportionInterval, DEFAULT_CONFIDENCE } from '../runner/intervals.js';
export { parseGate, evaluateGates, gatesPassed, DEFAULT_GATES, GATE_GRAMMAR } from '../runner/gates.js';

// Services: your own, declared once, and the built-ins declared the same way
export {
  defineService,
  isServiceDefinition,
  ServiceError,
  CommonServiceOptionsSchema,
  BUILTIN_SERVICES,
  BUILTIN_SERVICE_DEFINITIONS,
  createWorld,
  World,
  EffectLedger,
  SERVICE_HTTP_METHODS,
  runCommand,
  ProcessTable,
  tasks,
  TASK_STATES,
} from '../world/index.js';
export { memoryBackend } from '../runner/backend.js';
export { loadServiceModule } from '../runner/loadService.js';
export { HttpError } from '../core/http.js';
// Network latency: a scenario's `network`, its distributions and the seeded sampler
export { DistributionSchema, sample } from '../core/distribution.js';
export { NetworkSchema, LegLatencySchema } from '../faults/network.js';
/** The zod faultline is built with: one copy for your schemas and ours. */
export { z } from 'zod';

// The runtime under test and its configurations
export { Executor } from '../runtime/Executor.js';
export { RetryConfigSchema, rulebookDefault } from '../runtime/config.js';
export { ExecutionConfigFileSchema, LayersSchema, parseExecutionConfig, runtimeConfig } from '../runtime/executionConfig.js';

// Agents
export { ScriptedModel } from '../agent/ScriptedModel.js';
export { defineAgent } from '../agent/agentFunction.js';
export { defineHttpAgent } from '../agent/httpAgent.js';
/** Reads a scripted model's final answer (`{"outcome","message","claims"}` text) back, for agents on real SDKs. */
export { finalFromText } from '../faults/http/model/conversation.js';
export { readToolResult } from '../faults/http/model/readToolResult.js';

// Faults and checkers
export { FaultPlanSchema } from '../faults/plan.js';
export { BUILTIN_CHECKERS } from '../checks/index.js';

// Reports
export {
  renderConsoleReport,
  renderJsonReport,
  renderJunitReport,
  renderMarkdownReport,
  writeReports,
  formatTimeline,
  verdictLines,
  replayCommand,
  parseJsonReport,
  runFromJsonReport,
  colorEnabled,
  JsonReportSchema,
  JSON_SCHEMA_VERSION,
} from '../report/index.js';

// The project config file (faultline.config.ts)
export { defineConfig } from '../config/defineConfig.js';

// Errors
export { FaultlineError, FaultlineErrorCode, isFaultlineError } from '../core/errors.js';

export type { Scenario, ScenarioInput, AgentSpec } from '../runner/scenario.js';
export type { Distribution, DistributionKind } from '../core/distribution.js';
export type { Network, LegLatency } from '../faults/network.js';
export type { NetworkLeg } from '../core/transport.js';
export type { NetworkLegs } from '../core/events.js';
export type {
  BuiltinServiceName,
  CommandResult,
  CommandResultKind,
  CommandSpec,
  CommonServiceOptions,
  RunCommandOptions,
  Effect,
  NewEffect,
  Service,
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
  ToolContext,
  ToolDefinition,
  ToolSpec,
  ToolSummary,
  WorldConfig,
  WorldSnapshot,
} from '../world/index.js';
export type { TrialBackend } from '../runner/backend.js';
export type { TrialResult, TrialSummary, TrialStatus, TrialOptions, CheckResult } from '../runner/trial.js';
export type { RunResult, RunOptions, Cell, CellRefs, VerdictGroup, Shard } from '../runner/run.js';
export type { IsolationOptions } from '../runner/pool/runOnWorkers.js';
export type { CellMetrics, ConfigMetrics } from '../runner/metrics.js';
export type { TaskTally } from '../runner/passK.js';
export type { Interval, PassIntervals, PassIntervalCurves } from '../runner/intervals.js';
export type { Gate, GateFailure, GateResult, GateScope } from '../runner/gates.js';
export type { RetryConfig, RetryConfigInput, Backoff } from '../runtime/config.js';
export type { ExecutionConfig, ExecutionConfigKind, ExecutionConfigLike, Layers } from '../runtime/executionConfig.js';
export type { ExecutorOptions } from '../runtime/Executor.js';
export type { ToolExecutor, CallOptions } from '../runtime/ToolExecutor.js';
export type { ToolResult } from '../runtime/result.js';
export type { ScriptedModelOptions } from '../agent/ScriptedModel.js';
export type { AgentContext, AgentFn, AgentFnResult } from '../agent/agentFunction.js';
export type { HttpAgentContext, HttpAgentFn, ModelEndpoint, ServiceEndpoint } from '../agent/httpAgent.js';
export type { Model, ModelAction, ModelInput, Message, ProposedCall } from '../agent/model.js';
export type { Behaviour, BehaviourMix, BehaviourSpec } from '../agent/behaviours.js';
export type { ToolReading, ToolReadingKind, ToolResultReader, ToolResultText } from '../faults/http/model/readToolResult.js';
export type { Fault, FaultKind } from '../faults/fault.js';
export type { FaultPlan, FaultRule, FaultMatch } from '../faults/plan.js';
export type { Checker } from '../checks/checker.js';
export type { Expectations, TrialEnd, TrialRecord } from '../checks/record.js';
export type { HistoryEvent, HistoryEventType, EventOf, Claim, ClaimBy } from '../core/events.js';
export type { Verdict } from '../core/verdict.js';
export type { FaultlineConfig } from '../config/defineConfig.js';
export type { JsonReport, WallClock, ReporterName, WriteReportsOptions, WrittenReports, ConsoleReportOptions } from '../report/index.js';
