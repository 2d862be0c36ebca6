export { type Clock, flushMicrotasks, systemClock, VirtualClock } from './clock.ts';
