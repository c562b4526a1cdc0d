/** Service connections of one command: the built-in emulator is started at most once and shared. */
import type { Clock } from '../core/clock.js';
import { connect, type ServiceConnection, type ServiceTarget } from './service-target.js';

export interface Connections {
  get(target: ServiceTarget, quotaTimeZone?: string): Promise<ServiceConnection>;
  closeAll(): Promise<void>;
}

export function createConnections(announce: (line: string) => void, clock?: Clock): Connections {
  let embedded: Promise<ServiceConnection> | undefined;
  return {
    async get(target, quotaTimeZone) {
      if (target.kind === 'remote') return connect(target, { announce });
      embedded ??= connect(target, { ...(quotaTimeZone !== undefined ? { quotaTimeZone } : {}), ...(clock ? { clock } : {}), announce });
      const shared = await embedded;
      // One emulator knows every demo token: only the token and plan differ per pipeline.
      return { ...shared, token: target.token, plan: target.plan, close: async () => undefined };
    },
    async closeAll() {
      if (embedded) await (await embedded).close();
    },
  };
}
