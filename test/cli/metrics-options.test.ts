/** --metrics-* settings: nothing asked, nothing started; bad values are usage errors that name the flag. */
import { describe, expect, it } from 'vitest';
import { metricsSettings } from '../../src/cli/metrics-options.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('metricsSettings', () => {
  it('no metrics flag: no metrics', () => {
    expect(metricsSettings({})).toBeUndefined();
  });

  it('port and textfile, with the default interval of 15 s', () => {
    expect(metricsSettings({ 'metrics-port': 0 })).toEqual({ port: 0, intervalMs: 15_000 });
    expect(metricsSettings({ 'metrics-port': 9464, 'metrics-host': '0.0.0.0', 'metrics-textfile': '/t/q.prom', 'metrics-interval': 2.5 })).toEqual({
      port: 9464,
      host: '0.0.0.0',
      textfile: '/t/q.prom',
      intervalMs: 2500,
    });
  });

  it.each([
    [{ 'metrics-port': -1 }, '--metrics-port must be a port number'],
    [{ 'metrics-port': 65_536 }, '--metrics-port must be a port number'],
    [{ 'metrics-port': 1.5 }, '--metrics-port must be a port number'],
    [{ 'metrics-port': Number.NaN }, '--metrics-port must be a port number'],
    [{ 'metrics-textfile': 'q.prom', 'metrics-interval': 0 }, '--metrics-interval must be a number of seconds above 0'],
    [{ 'metrics-textfile': ' ' }, '--metrics-textfile needs a file path'],
    [{ 'metrics-host': '127.0.0.1' }, '--metrics-host needs --metrics-port'],
    // Empty would listen on every interface: an unset variable in `--metrics-host "$HOST"` must not open it.
    [{ 'metrics-port': 9464, 'metrics-host': '' }, '--metrics-host needs an address'],
    [{ 'metrics-port': 9464, 'metrics-host': '  ' }, '--metrics-host needs an address'],
    // The endpoint would "listen" where no scraper can connect.
    [{ 'metrics-port': 9464, 'metrics-host': '224.0.0.1' }, '--metrics-host 224.0.0.1 is a multicast address (224.0.0.0/4): no client can connect to it'],
    [{ 'metrics-port': 9464, 'metrics-host': '255.255.255.255' }, '--metrics-host 255.255.255.255 is the broadcast address: no client can connect to it'],
    [{ 'metrics-interval': 5 }, '--metrics-interval needs --metrics-textfile'],
  ])('%o is a usage error', (args, message) => {
    expect(() => metricsSettings(args)).toThrow(UsageError);
    expect(() => metricsSettings(args)).toThrow(message);
  });
});
