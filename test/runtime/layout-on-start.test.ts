/**
 * A run on the 0.1.0 fixture lake: migrated at start with one notice, then its checkpoints resume
 * (only bars after the 0.1.0 watermark are fetched; the rows 0.1.0 wrote stay as they were).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { createLogger } from '../../src/runtime/logger.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { runPipeline } from '../../src/runtime/run-pipeline.js';
import { copyOfFixture, layout1Rows, layout2Rows } from '../lake/layout/fixture-lake.js';
import { startWorld, type World } from '../sources/helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('a run on a lake written by 0.1.0', () => {
  it('migrates it first with one notice, then resumes from its checkpoints', async () => {
    const expected = await layout1Rows();
    const dir = await copyOfFixture();
    const before = JSON.parse(await readFile(join(dir, '.state/checkpoints/fx-kline.json'), 'utf8')) as { streams: Record<string, { watermark: number }> };
    world = await startWorld('2026-11-20T12:30:00.000Z');
    const lines: string[] = [];
    const result = await runPipeline(
      {
        name: 'fx-kline',
        source: { type: 'kline-history', codes: ['BTCUSDT', 'EURUSD'], intervals: ['1m', '1h'], since: '1d' },
        transforms: [{ type: 'parse-decimals' }],
        sink: { type: 'parquet' },
      },
      {
        registry: components,
        outputDir: dir,
        client: world.client('professional'),
        clock: world.clock,
        events: createRunEvents(),
        stdout: new PassThrough(),
        logger: createLogger({ level: 'warn', write: (l) => lines.push(l), clock: world.clock }),
      },
    );
    expect(result.status).toBe('succeeded');
    const notices = lines.filter((l) => l.includes('layout'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('migrated the lake from layout 1 (quotelake 0.1.0) to layout 2: 10 file(s) rewritten');

    // Resumed: 30 minutes of 1m bars (and at most one 1h bar) per code, not the whole day again.
    const written = result.manifest.rows.kline!.written;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(2 * (31 + 2));
    const after = JSON.parse(await readFile(join(dir, '.state/checkpoints/fx-kline.json'), 'utf8')) as { version: number; streams: Record<string, { watermark: number }> };
    expect(after.version).toBe(1);
    for (const [stream, { watermark }] of Object.entries(before.streams)) expect(after.streams[stream]!.watermark, stream).toBeGreaterThanOrEqual(watermark);
    expect(after.streams['kline/BTCUSDT/1m']!.watermark).toBeGreaterThan(before.streams['kline/BTCUSDT/1m']!.watermark);

    // Every row 0.1.0 wrote is still there, unchanged; the new ones come after.
    const rows = (await layout2Rows(dir)).get('kline.parquet')!;
    const old = expected.get('kline.parquet')!;
    // The source re-reads each stream from its watermark bar on: only those may have been replaced.
    expect(rows.length).toBeGreaterThan(old.length);
    expect(rows.length).toBeLessThanOrEqual(old.length + written);
    const have = new Set(rows);
    const replaced = old.filter((r) => !have.has(r)).map((r) => JSON.parse(r) as { code: string; interval: string; ts: number });
    for (const r of replaced) expect(r.ts, JSON.stringify(r)).toBeGreaterThanOrEqual(1000 * before.streams[`kline/${r.code}/${r.interval}`]!.watermark);
    expect(replaced.length).toBeLessThanOrEqual(4);
    expect(JSON.parse(await readFile(join(dir, '_quotelake/layout.json'), 'utf8'))).toMatchObject({ version: 2, migratedFrom: 1 });
  });
});
