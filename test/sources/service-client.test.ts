/**
 * A source's service client, as a library caller passes it (RunOptions.client is a value the
 * runtime hands on unseen): none, or something that is not a client, each said as what it is.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serviceClient } from '../../src/sources/shared/service-client.js';

const env = (client: unknown) => ({ outputDir: '/tmp/x', stateDir: '/tmp/x/.state', stdout: new PassThrough(), client });

describe('serviceClient', () => {
  it('names what it was given when that is not a client', () => {
    expect(() => serviceClient(env(undefined), 'kline-history')).toThrow('source kline-history needs the service client (set the base URL, token and plan)');
    expect(() => serviceClient(env('demo-professional'), 'kline-history')).toThrow('source kline-history needs the service client, and was given a string: pass what createClient() returns (RunOptions.client)');
    expect(() => serviceClient(env(new Map()), 'trade-snapshot')).toThrow('and was given a Map:');
    expect(() => serviceClient(env({ url: 'http://127.0.0.1' }), 'trade-snapshot')).toThrow('and was given an object without kline():');
    const client = { kline: () => undefined };
    expect(serviceClient(env(client), 'kline-history')).toBe(client);
  });
});
