/** What `queue drop --only` can take off the queue (apart from its action, so the command line loads no BullMQ to list them). */
export type DropWhat = 'waiting' | 'failed' | 'schedules';
export const DROP_WHAT: readonly DropWhat[] = ['waiting', 'failed', 'schedules'];
