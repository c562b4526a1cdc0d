/** The Redis coordinator (`--coordinator redis://…`): loaded only when a command asks for it. */
export { RedisCoordinator, type SharedDayCount } from './redis-coordinator.js';
export { tokenKeys, KEY_PREFIX } from './redis-keys.js';
export { POLL_MS } from './redis-limiter.js';
