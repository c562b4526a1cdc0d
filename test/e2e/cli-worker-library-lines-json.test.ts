/**
 * `worker --log-format json` with a coordinator URL that carries a password Redis does not need:
 * ioredis prints "[WARN] … a password was supplied" itself as each connection opens. Every line on
 * stderr must still be JSON, the library's own lines included (event library-message), also those
 * of the first connections, made before the worker's log exists.
 */
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli } from './helpers/cli.js';

describe('worker --log-format json and ioredis lines', () => {
  const redis = useRedisServer();

  it('the password warning of each connection is a JSON line, never plain text', async () => {
    const url = redis().url.replace('redis://', 'redis://:not-needed@');
    // An empty queue: the batch ends at once (exit 0), after every connection was opened.
    const r = await runCli(['worker', '--until-empty', '--coordinator', url, '--log-format', 'json', '--token', 'demo-professional', '--plan', 'professional', '--base-url', 'http://127.0.0.1:9']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !l.startsWith('{'))).toEqual([]);
    const library = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'library-message');
    expect(library.length).toBeGreaterThanOrEqual(2);
    for (const line of library) expect(line).toMatchObject({ level: 'warn', msg: expect.stringContaining('does not require a password, but a password was supplied') });
    // The password itself is never printed.
    expect(r.stderr).not.toContain('not-needed');
  }, 60_000);
});
