/**
 * A number option given twice whose second value is 1: yargs adds the 1 to the first value (as a
 * counter) instead of making a list, so `serve --port 8765 --port 1` listened on 8766 in silence.
 * An impossible --port keeps the command from starting at all where the repetition went unseen.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('a number option given twice, the second time as 1', () => {
  it('is a usage error naming both values as written, for serve and run', async () => {
    const results = await Promise.all([
      runCli(['serve', '--seed', '5', '--seed', '1', '--port', '70000']),
      runCli(['serve', '--port', '8765', '--port=1', '--seed', '-1']),
      runCli(['serve', '--seed', '0', '--seed', '1', '--port', '70000']),
      runCli(['run', 'demo', '--stop-timeout', '3', '--stop-timeout', '1', '--output', '/proc/nope']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --seed was given 2 times (5, 1): it takes one value'],
      [2, 'quotelake: --port was given 2 times (8765, 1): it takes one value'],
      [2, 'quotelake: --seed was given 2 times (0, 1): it takes one value'],
      [2, 'quotelake: --stop-timeout was given 2 times (3, 1): it takes one value'],
    ]);
    for (const r of results) expect(r.stderr).toContain('hint: give --');
  });

  it('still takes a number option given once as 1', async () => {
    const r = await runCli(['serve', '--seed', '1', '--port', '70000']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, 'quotelake: --port must be an integer 0..65535, got 70000']);
  });
});
