/**
 * `serve --faults` or `--behaviours` with nothing after it (last on the line, `--faults $UNSET`):
 * yargs makes it an empty spec, which is "off", so the emulator ran without the faults it was
 * asked for, unsaid, and ignored the environment's spec too. An explicit '' still switches it off.
 * An impossible --port keeps the command from starting where the missing value went unseen.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('serve --faults or --behaviours given no value', () => {
  it('is a usage error naming the option, last on the line or before another option', async () => {
    const results = await Promise.all([
      runCli(['serve', '--port', '70000', '--faults']),
      runCli(['serve', '--behaviours', '--port', '70000']),
    ]);
    expect(results.map((r) => [r.code, r.stderr.split('\n')[0]])).toEqual([
      [2, "quotelake: --faults needs a value (a spec; --faults '' switches it off, leave the option out for QUOTELAKE_EMULATOR_FAULTS)"],
      [2, "quotelake: --behaviours needs a value (a spec; --behaviours '' switches it off, leave the option out for QUOTELAKE_EMULATOR_BEHAVIOURS)"],
    ]);
  });

  it("an explicit empty spec is still taken (off)", async () => {
    const results = await Promise.all([runCli(['serve', '--faults', '', '--port', '70000']), runCli(['serve', '--behaviours=', '--port', '70000'])]);
    for (const r of results) expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, 'quotelake: --port must be an integer 0..65535, got 70000']);
  });
});
