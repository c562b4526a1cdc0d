/**
 * A worker's subscription to releases across a Redis restart. A restarted Redis with a large dataset
 * may refuse commands with LOADING, or answer late; the subscriber's new subscribe then fails. That
 * must not end the process (an unhandled rejection is a crash in the CLI); the subscribe is asked
 * again, and once Redis answers the subscriber hears releases as before.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisLink } from '../../../src/api/redis/redis-link.js';
import { useRedisServer } from '../../helpers/redis-server.js';

const CHANNEL = 'quotelake:{test}:released';

/** On `port`, a Redis that is still loading its dataset: every command gets -LOADING. */
async function loadingRedis(port: number): Promise<{ server: Server; commands: string[] }> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (data) => {
      // One reply per command: a RESP array starts with '*'.
      const text = data.toString('latin1');
      const count = text.split('\r\n').filter((line) => line.startsWith('*')).length;
      commands.push(...text.split('\r\n').filter((line) => /^[a-z]+$/i.test(line)));
      for (let i = 0; i < count; i++) socket.write('-LOADING Redis is loading the dataset in memory\r\n');
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const close = server.close.bind(server);
  server.close = (callback) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return { server, commands };
}

/** Polls `condition` (vitest's waitFor) every 20 ms until it holds, for at most 10 s. */
function until(condition: () => boolean, what: string): Promise<void> {
  return vi.waitFor(
    () => {
      if (!condition()) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** Publishes on CHANNEL from a connection of its own until `heard`. */
async function publishUntil(url: string, heard: () => boolean, what: string): Promise<void> {
  const publisher = new Redis(url);
  try {
    await until(() => (void publisher.publish(CHANNEL, '1').catch(() => undefined), heard()), what);
  } finally {
    publisher.disconnect();
  }
}

describe('RedisLink subscriber across a restart', () => {
  const redis = useRedisServer();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const links: RedisLink[] = [];

  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    for (const link of links.splice(0)) await link.close();
  });

  it('a Redis answering LOADING: the subscribe fails without a crash and is asked again; releases are heard once it answers', async () => {
    process.on('unhandledRejection', onUnhandled);
    const link = new RedisLink(redis().url, { commandTimeoutMs: 500 });
    links.push(link);
    await link.open();
    let woken = 0;
    link.listen(CHANNEL, () => woken++);

    // Subscribed: a release wakes the listener.
    await publishUntil(redis().url, () => woken > 0, 'the first release');

    await redis().kill();
    const loading = await loadingRedis(redis().port);
    // Asked again after the reconnect, and again on the same connection once refused.
    const subscribes = () => loading.commands.filter((name) => name.toLowerCase() === 'subscribe').length;
    await until(() => subscribes() >= 2, 'the subscriber to subscribe again, twice');
    // Let the -LOADING reply's rejection reach the unhandled-rejection check.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    await new Promise<void>((resolve) => loading.server.close(() => resolve()));

    await redis().restart();
    const before = woken;
    await publishUntil(redis().url, () => woken > before, 'a release after the restart');
    expect(unhandled).toEqual([]);
  });
});
