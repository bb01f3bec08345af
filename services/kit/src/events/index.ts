export { startDurableConsumer, removeDurableConsumer, type DurableOptions, type EventHandler } from './durable';
export { startWorkQueue, type WorkQueueOptions } from './work-queue';
export { follow, type Follower, type FollowOptions } from './follow';
export { readStreamToEnd, type ReadToEndOptions } from './read-to-end';
export { publishDirect, subscribeDirect, eventChannel, type DirectOptions } from './direct';
export { consumerLag, type ConsumerLag } from './lag';
export { backoffDelay, recordDeadLetter, parseEvent, DEFAULT_BACKOFF_MS, DEFAULT_MAX_DELIVER, type EventOf, type RunningConsumer } from './pull';
