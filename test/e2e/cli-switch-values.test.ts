/**
 * A switch given a value other than true or false: yargs reads it as false, so `serve --limits=on`
 * switched every limit off and `--clock-runs=yes` froze the clock it was asked to run, unsaid.
 * An impossible --port keeps the command from starting where the value went unseen.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('a switch given a value', () => {
  it('other than true or false is a usage error naming the switch and the value', async () => {
    const results = await Promise.all([
      runCli(['serve', '--limits=on', '--port', '70000']),
      runCli(['serve', '--clock', '2026-11-20T00:00:00Z', '--clock-runs=yes', '--port', '70000']),
      runCli(['serve', '--limits=1', '--port', '70000']),
      runCli(['run', 'demo', '--quiet=yes', '--output', '/proc/nope']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, 'quotelake: --limits is a switch: it takes no value, or true or false, got "on"'],
      [2, 'quotelake: --clock-runs is a switch: it takes no value, or true or false, got "yes"'],
      [2, 'quotelake: --limits is a switch: it takes no value, or true or false, got "1"'],
      [2, 'quotelake: --quiet is a switch: it takes no value, or true or false, got "yes"'],
    ]);
    expect(results[0]!.stderr).toContain('hint: give --limits alone to switch it on, --no-limits to switch it off');
  });

  it('=true and =false are still taken as written', async () => {
    const results = await Promise.all([
      runCli(['serve', '--limits=false', '--port', '70000']),
      runCli(['serve', '--clock', '2026-11-20T00:00:00Z', '--clock-runs=true', '--port', '70000']),
    ]);
    for (const r of results) expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, 'quotelake: --port must be an integer 0..65535, got 70000']);
  });
});
