/**
 * A program's run of a pipeline that names its output in `sink.output` writes there, as one that
 * names it in `options.outputDir` does (the command line resolves both; runPipeline read only the
 * second). Through the package's entry point, against the emulator on loopback.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components, createClient, definePipeline, ManualClock, runPipeline, startEmulator } from '../../src/index.js';

describe('runPipeline and sink.output', () => {
  it('writes the lake and keeps the state where sink.output names', async () => {
    const clock = new ManualClock('2026-11-20T12:00:00Z');
    const emulator = await startEmulator({ clock, log: () => {} });
    const dir = await mkdtemp(join(tmpdir(), 'ql-run-sink-output-'));
    const lake = join(dir, 'lake');
    const client = createClient({ baseUrl: emulator.url, token: 'demo-professional', plan: 'professional', stateDir: join(dir, 'quota'), clock });
    const pipeline = definePipeline({
      name: 'btc-hours',
      source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' },
      transforms: [{ type: 'parse-decimals' }],
      sink: { type: 'parquet', output: lake },
    });
    try {
      const result = await runPipeline(pipeline, { registry: components, client, clock });
      expect(result.status).toBe('succeeded');
      const manifest = JSON.parse(readFileSync(join(lake, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { rows: number }[] };
      expect(manifest.files.reduce((sum, f) => sum + f.rows, 0)).toBe(49);
      expect(existsSync(join(lake, '.state/checkpoints/btc-hours.json'))).toBe(true);
      expect(existsSync(join(process.cwd(), 'output/.state/checkpoints/btc-hours.json'))).toBe(false);
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
