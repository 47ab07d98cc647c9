export { LayersSchema, parseContentionConfig, runtimeConfig, type ContentionConfig, type ContentionConfigKind, type Layers } from './ContentionConfig.js';
export { ArrivalSchema, ContentionScenarioSchema, parseContentionScenario, type Arrival, type ContentionScenario, type ContentionScenarioInput } from './ContentionScenario.js';
export { createClient, type ClientContext } from './createClient.js';
export {
  CONTENTION_START_MS,
  callerOf,
  runContentionTrial,
  type AgentRun,
  type ContentionTrial,
  type ContentionTrialOptions,
  type ContentionTrialStats,
  type OpRun,
} from './runContentionTrial.js';
export { contentionMetrics, type ContentionFlag, type ContentionFlagKind, type ContentionMetrics } from './contentionMetrics.js';
export { compareContention, type CompareContentionOptions, type ContentionComparison, type ContentionResult } from './compareContention.js';
export { LOAD_BIN_MS, bucketFor, loadHistogram, loadSeries, type LoadHistogram } from './loadHistogram.js';
export { CONTENTION_CONFIG_DIR, CONTENTION_SCENARIO_DIR, loadContentionConfigs, loadContentionScenarios } from './library.js';
