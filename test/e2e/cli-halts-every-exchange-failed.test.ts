/**
 * trading-halts when every exchange fails (here a token whose plan covers none of them): the run
 * fails with the service's error (exit 1) and no note says the other exchanges' records are kept,
 * for none were; when one exchange delivered, the failed one's note still says so (exit 4).
 * Through the built CLI against `quotelake serve`, on a frozen instant.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLakeRecords } from '../../src/lake/reader/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const NOW = '2026-11-20T10:00:00Z';

let emulator: ServedEmulator;
beforeAll(async () => {
  emulator = await serveChild([], ['--clock', NOW]);
});
afterAll(() => emulator.stop());

function halts(exchanges: string): { pipeline: string; output: string } {
  const dir = tempDir('ql-halts-failed-');
  const pipeline = join(dir, 'halts.yaml');
  writeFileSync(pipeline, `name: halts\nsource:\n  type: trading-halts\n  exchanges: ${exchanges}\ntransforms:\n  - type: normalize-halts\nsink:\n  type: parquet\n`);
  return { pipeline, output: join(dir, 'out') };
}

const run = (pipeline: string, output: string, token: string, plan: string) =>
  runCli(['run', pipeline, '--base-url', emulator.url, '--plan', plan, '--output', output, '--clock', NOW], { env: { QUOTELAKE_TOKEN: token } });

describe('trading-halts: notes when exchanges fail', () => {
  it('every exchange refused: exit 1, each exchange named, and no note claims records were kept', async () => {
    const { pipeline, output } = halts('[sse, nyse, nasdaq]');
    const r = await run(pipeline, output, 'demo-all-hk', 'all-hk');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('records are kept');
    for (const exchange of ['sse', 'nyse', 'nasdaq']) {
      expect(r.stderr).toContain(
        `    - trading-halts ${exchange}: not delivered: /api/suspension/${exchange}: HTTP 500 exchange not covered by plan; no exchange was delivered, so nothing is written and the next run asks again (a token whose plan does not cover ${exchange} is refused every time: drop it from exchanges)\n`,
      );
    }
    expect(r.stderr).toMatch(/\nquotelake: \/api\/suspension\/(sse|nyse|nasdaq): HTTP 500 exchange not covered by plan\n/);
    expect(await readLakeRecords(output, 'halt', 'parquet').catch(() => [])).toEqual([]);
  });

  it('one exchange delivered: exit 4, and the refused one says the other records are kept', async () => {
    const { pipeline, output } = halts('[sse, nyse]');
    const r = await run(pipeline, output, 'demo-all-cn', 'all-cn');
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(
      "    - trading-halts nyse: not delivered: /api/suspension/nyse: HTTP 500 exchange not covered by plan; the other exchanges' records are kept and the next run asks again (a token whose plan does not cover nyse is refused every time: drop it from exchanges)\n",
    );
    const rows = await readLakeRecords(output, 'halt', 'parquet');
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.exchange))).toEqual(new Set(['sse']));
  });
});
