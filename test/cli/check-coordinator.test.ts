/** The queue commands' first look at their Redis: one that is not there is named with the reason the connection gave. */
import { describe, expect, it } from 'vitest';
import { checkCoordinator } from '../../src/cli/queue/coordinator.js';
import { closedPort } from '../helpers/closed-port.js';

describe('checkCoordinator', () => {
  it('nothing listening: QL_COORDINATOR_UNREACHABLE naming ECONNREFUSED, not ioredis\' "Connection is closed."', async () => {
    const port = await closedPort();
    const url = `redis://:secret-pw@127.0.0.1:${port}`;
    const error = await checkCoordinator(url).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'QL_COORDINATOR_UNREACHABLE', message: `the coordinator redis://:***@127.0.0.1:${port} does not answer (ECONNREFUSED)` });
    expect(String((error as Error).message)).not.toContain('secret-pw');
  });
});
