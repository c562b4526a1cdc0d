/**
 * Through the built CLI, as a user meets them: a service whose stock pages stay short (R1) ends
 * the run with exit 4 and names the series; a service that is not there fails fast, charged to
 * no quota (R3). Both on frozen instants: nothing depends on today's date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';
import { quickRetry } from './helpers/quick-retry.js';

const NOW = '2026-03-04T18:00:00Z'; // a Wednesday, US market open
const TOKEN = 'sk-e2e-short-pages';

let emu: ServedEmulator | undefined;
afterAll(async () => emu?.stop());

describe('a service that is not our emulator, through the CLI', () => {
  it('a stock page that stays short through every ask: exit 4, the series named, the rows it gave kept', async () => {
    emu = await serveChild([{ token: TOKEN, plan: 'professional', behaviours: 'short-pages=1' }], ['--clock', NOW]);
    const output = tempDir();
    const r = await runCli(['run', 'kline-backfill', '--codes', 'AAPL.US', '--since', '2026-03-04T14:30:00Z', '--base-url', emu.url, '--plan', 'professional', '--output', output, '--json', '--clock', NOW], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });
    expect(r.code, r.stderr).toBe(4);
    const s = (JSON.parse(r.stdout) as { runs: { status: string; notes: string[]; rows: { kline: { written: number } } }[] }).runs[0]!;
    expect(s.status).toBe('incomplete');
    expect(s.notes.some((n) => /^kline AAPL\.US 1m: the service gave \d+ of the newest \d+ bars asked for, in 4 tries; bars before .* were not delivered$/.test(n))).toBe(true);
    expect(s.rows.kline.written).toBeGreaterThan(0);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('the same with --quiet, as the scheduling recipes run it: stderr still names the series and why (a warn line)', async () => {
    emu ??= await serveChild([{ token: TOKEN, plan: 'professional', behaviours: 'short-pages=1' }], ['--clock', NOW]);
    const output = tempDir();
    const r = await runCli(['run', 'kline-backfill', '--codes', 'AAPL.US', '--since', '2026-03-04T14:30:00Z', '--base-url', emu.url, '--plan', 'professional', '--output', output, '--quiet', '--clock', NOW], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/WARN: kline AAPL\.US 1m: the service gave \d+ of the newest \d+ bars asked for, in 4 tries; bars before \S+ were not delivered \{"event":"shortfall"\}/);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('a stock page of 500 answered short at the first ask only: completed by another ask, exit 0, every series whole', async () => {
    // Seed 6 at this frozen instant answers the first ask for the newest 500 bars short for three of
    // these four series; asks for fewer bars (499, 498, 497) could never complete them, 501 can.
    // At most 16 requests: within the professional plan's 20 a second of a frozen clock.
    const half = await serveChild([], ['--clock', '2026-11-20T12:34:56Z', '--seed', '6', '--behaviours', 'short-pages=0.5']);
    try {
      const output = tempDir();
      const pipeline = join(output, 'stocks.yaml');
      writeFileSync(pipeline, 'name: stocks\nsource:\n  type: kline-history\n  codes: [AAPL.US, TSLA.US, SPX.US, 700.HK]\n  intervals: [1m]\n  since: 3d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
      const r = await runCli(['run', pipeline, '--base-url', half.url, '--plan', 'professional', '--output', output, '--json', '--clock', '2026-11-20T12:34:56Z'], {
        env: { QUOTELAKE_TOKEN: 'demo-professional' },
      });
      const s = (JSON.parse(r.stdout) as { runs: { notes: string[]; coverage: { series: { code: string; bars: number }[] } }[] }).runs[0]!;
      expect(s.notes.filter((n) => n.includes('of the newest'))).toEqual([]);
      expect(r.code, r.stderr).toBe(0);
      expect(s.coverage.series.map((x) => [x.code, x.bars])).toEqual(['700.HK', 'AAPL.US', 'SPX.US', 'TSLA.US'].map((c) => [c, 500]));
    } finally {
      await half.stop();
    }
  });

  it('a service that refuses connections: exit 1 within the retries, the endpoint named, no quota charged', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const output = tempDir();
    // Its retries a few milliseconds apart (service.retry): the attempts are what end the run.
    const r = await runCli(['run', quickRetry('halts'), '--base-url', `http://127.0.0.1:${port}`, '--plan', 'professional', '--output', output, '--clock', NOW], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\/api\/suspension\/(sse|nyse|nasdaq)/);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).not.toContain(TOKEN);
    const quotaDir = join(output, '.state', 'quota');
    for (const f of readdirSync(quotaDir)) expect(JSON.parse(readFileSync(join(quotaDir, f), 'utf8'))).toMatchObject({ used: 0 });
  });
});
