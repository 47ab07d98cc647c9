/**
 * Set in the environment of each run a watching faultline starts: the scenario files (absolute,
 * as JSON) that run is limited to, or empty for all of them. A run that sees it does not watch.
 */
export const WATCH_RERUN_ENV = 'FAULTLINE_WATCH_RERUN';
