export { sleepOn, type Clock, type TimerHandle } from './Clock.js';
export { RealClock, realSleep, wallDeadline, wallMs, wallTicker } from './RealClock.js';
export { VirtualClock, type ClockRun, type ClockRunKind, type ClockRunOptions } from './VirtualClock.js';
export { holdOf, holdOn } from './holdOn.js';
