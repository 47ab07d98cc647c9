export { AdmissionControl, type Admission, type AdmissionKind, type AdmissionStats } from './AdmissionControl.js';
export { CapacitySchema, type CapacityConfig, type CapacityConfigInput } from './CapacityConfig.js';
export type { ContentionService } from './ContentionService.js';
export { ContentionServiceSchema, createContentionService, type ContentionServiceConfig, type ContentionServiceKind } from './ContentionServiceConfig.js';
export { jobsService, type JobsOptions } from './jobsService.js';
export { optimisticService, type OptimisticOptions } from './optimisticService.js';
export { RateLimiter, type RateDecision, type RateDecisionKind } from './RateLimiter.js';
