/** Service connections of one command: the built-in emulator is started at most once and shared. */
import type { Clock } from '../core/clock.js';
import { connect, type Announce, type ServiceConnection, type ServiceTarget } from './service-target.js';

export interface Connections {
  get(target: ServiceTarget, quotaTimeZone?: string): Promise<ServiceConnection>;
  closeAll(): Promise<void>;
}

export function createConnections(announce: Announce, clock?: Clock): Connections {
  // One built-in emulator per plans file (usually one in all): it knows the demo tokens of those plans.
  const embedded = new Map<string, Promise<ServiceConnection>>();
  return {
    async get(target, quotaTimeZone) {
      if (target.kind === 'remote') return connect(target, { announce });
      const key = target.plans?.file ?? '';
      let started = embedded.get(key);
      if (started === undefined) {
        started = connect(target, { ...(quotaTimeZone !== undefined ? { quotaTimeZone } : {}), ...(clock ? { clock } : {}), announce });
        embedded.set(key, started);
      }
      const shared = await started;
      // One emulator knows every demo token: only the token and plan differ per pipeline.
      return { ...shared, token: target.token, plan: target.plan, pool: target.pool, close: async () => undefined };
    },
    async closeAll() {
      for (const started of embedded.values()) await (await started).close();
    },
  };
}
