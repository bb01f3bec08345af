export { startDurableConsumer, type DurableOptions, type EventHandler } from './durable';
export { startWorkQueue, type WorkQueueOptions } from './work-queue';
export { follow, type Follower, type FollowOptions } from './follow';
export { backoffDelay, recordDeadLetter, DEFAULT_BACKOFF_MS, DEFAULT_MAX_DELIVER, type EventOf, type RunningConsumer } from './pull';
