/**
 * Requests the service refuses with 429 go again and grow the plan by one each: they are sent but
 * move nothing on, so the progress line must not creep towards 100 % with an ETA of a second or
 * two while the service keeps refusing.
 */
import { describe, expect, it } from 'vitest';
import { startCli, tempDir } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';

describe('progress under 429s', () => {
  it('a run whose every request is refused shows 0 % done, the refusals and no ETA', async () => {
    const token = 'tok-progress-refused';
    const emu = await serveChild([{ token, plan: 'professional', faults: '429=1' }]);
    try {
      const run = startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--base-url', emu.url, '--output', tempDir()], {
        env: { QUOTELAKE_TOKEN: token, QUOTELAKE_PROGRESS_INTERVAL_MS: '500' },
      });
      // A 429 holds every request for the plan's one-second window: a few are refused by the fourth line.
      await run.waitForStderr(/(^quotelake: kline-backfill: .*\n){4}/m);
      run.child.kill('SIGINT');
      const r = await run.result;
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('quotelake: kline-backfill: ') && / requests /.test(l));
      expect(lines.length, r.stderr).toBeGreaterThanOrEqual(4);
      const refusedLine = lines.find((l) => /\d+ refused with 429/.test(l));
      expect(refusedLine, r.stderr).toBeDefined();
      for (const line of lines) {
        expect(line).toMatch(/^quotelake: kline-backfill: (\d+) requests|\(0%\)/);
        expect(line).not.toMatch(/ETA/);
      }
    } finally {
      await emu.stop();
    }
  }, 60_000);
});
