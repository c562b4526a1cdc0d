/**
 * The K-line lane (core/kline-lane.ts, issue 14) against the record path it stands in for: the same
 * backfill run twice at the same instant, once as the CLI runs it (scanner → source → parse-decimals
 * → sink on the lane) and once with a transform ahead of parse-decimals that copies the records into
 * a plain array, which leaves the lane behind, so every stage reads row objects as before. Both
 * must write the same rows, the same file metadata and the same counts, whatever the service does
 * with its pages (R1-R7 behaviours of the emulator).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { components } from '../../src/components.js';
import type { Transform } from '../../src/core/component.js';
import type { ComponentDefinition, TransformDefinition } from '../../src/core/definition.js';
import { klineLaneAt } from '../../src/core/kline-lane.js';
import { laneOf } from '../../src/core/lazy-rows.js';
import { duck, tempDir } from '../sinks/helpers.js';
import { run } from '../sources/helpers/run.js';
import { startWorld, type World } from '../sources/helpers/world.js';
import { wideDecimals } from '../helpers/wide-decimals.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Batches each probe saw with a lane at the stage it looks for. */
const seen = { raw: 0, parsed: 0, batches: 0 };

/** A plain copy of the records: the lane stays behind. */
const copyRecords: TransformDefinition<Record<string, never>> = {
  kind: 'transform',
  type: 'copy-records',
  summary: 'Copies the records into a plain array',
  configSchema: z.strictObject({}),
  maps: { 'raw-kline': 'raw-kline' },
  examples: [{}],
  create: (): Transform<unknown, unknown> => ({ apply: (batch) => ({ output: { ...batch, records: [...batch.records] }, rejected: [] }) }),
};

/** Passes the batch on untouched, noting whether it carries a lane (and never reading a record). */
function probe(type: string, stage: 'raw' | 'parsed', kind: string): TransformDefinition<Record<string, never>> {
  return {
    kind: 'transform',
    type,
    summary: 'Notes lanes',
    configSchema: z.strictObject({}),
    maps: { [kind]: kind },
    examples: [{}],
    create: (): Transform<unknown, unknown> => ({
      apply: (batch) => {
        if (stage === 'raw') seen.batches++;
        if (klineLaneAt(laneOf(batch.records), stage) !== undefined) seen[stage]++;
        return { output: batch, rejected: [] };
      },
    }),
  };
}

const registry: readonly ComponentDefinition[] = [
  ...components,
  wideDecimals,
  copyRecords as ComponentDefinition,
  probe('raw-probe', 'raw', 'raw-kline') as ComponentDefinition,
  probe('parsed-probe', 'parsed', 'kline-row') as ComponentDefinition,
];

/** `narrow`: parse-decimals at 38,18 into a sink of DECIMAL(24,18), which rejects the values of more than 6 integer digits. */
function pipeline(lane: boolean, sink: 'parquet' | 'arrow', narrow = false, batchMaxRows?: number) {
  return {
    name: 'lane',
    source: { type: 'kline-history', codes: ['BTCUSDT', 'SHIBUSDT', 'EURUSD', 'GOLD', 'AAPL.US'], intervals: ['1m', '1h'], since: '3d' },
    transforms: [...(lane ? [] : [{ type: 'copy-records' }]), { type: 'raw-probe' }, { type: narrow ? 'wide-decimals' : 'parse-decimals' }, { type: 'parsed-probe' }],
    sink: { type: sink, ...(narrow ? { decimal: { precision: 24, scale: 18 } } : {}) },
    options: { onReject: 'divert' as const, ...(batchMaxRows !== undefined ? { batchMaxRows } : {}) },
  };
}

async function runIn(behaviours: string, lane: boolean, sink: 'parquet' | 'arrow', narrow = false, batchMaxRows?: number) {
  world = await startWorld('2026-11-23T13:00:00.000Z', 7, behaviours);
  const outputDir = await tempDir('ql-lane-');
  try {
    const result = await run(pipeline(lane, sink, narrow, batchMaxRows), { registry, outputDir, client: world.client('professional'), clock: world.clock });
    return { result, outputDir };
  } finally {
    await world.close();
    world = undefined;
  }
}

async function parquetRows(dir: string): Promise<string[]> {
  const rows = await duck(
    `SELECT code, interval, date, epoch_ms(ts) AS ts, open::VARCHAR o, high::VARCHAR h, low::VARCHAR l, close::VARCHAR c, volume::VARCHAR v, turnover::VARCHAR t, final FROM read_parquet('${dir}/kline/**/*.parquet', hive_partitioning = true) ORDER BY ALL`,
  );
  return rows.map((r) => Object.values(r).join(' '));
}

async function arrowRows(dir: string): Promise<string[]> {
  const files = (await readdir(join(dir, 'kline'), { recursive: true })).filter((f) => f.endsWith('.arrow') && !f.includes('.staging'));
  const rows: string[] = [];
  for (const f of files) {
    const t = tableFromIPC(await readFile(join(dir, 'kline', f)));
    for (let i = 0; i < t.numRows; i++) {
      const row = t.get(i)!.toJSON() as Record<string, unknown>;
      rows.push(`${f.replace(/part-.*$/, '')} ${Object.entries(row).map(([k, v]) => `${k}=${v instanceof Uint32Array ? [...v].join(':') : String(v)}`).join(' ')}`);
    }
  }
  return rows.sort();
}

/** The diverted records, each line without the run's own id and time. */
async function rejectedLines(dir: string): Promise<string[]> {
  const files = (await readdir(join(dir, '_rejected'), { recursive: true })).filter((f) => f.endsWith('.ndjson'));
  const lines: string[] = [];
  for (const f of files) {
    for (const line of (await readFile(join(dir, '_rejected', f), 'utf8')).split('\n').filter(Boolean)) {
      const { runId: _run, rejectedAt: _at, ...rest } = JSON.parse(line) as Record<string, unknown>;
      lines.push(JSON.stringify(rest));
    }
  }
  return lines.sort();
}

/** Each file's key-value metadata but the run's own id and time, by its partition. */
async function parquetMetadata(dir: string): Promise<string[]> {
  const rows = await duck(`SELECT file_name, decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${dir}/kline/**/*.parquet')`);
  return rows
    .filter((r) => !/run_id|created|written_at|ARROW:schema/.test(String(r.k)))
    .map((r) => `${String(r.file_name).replace(/part-.*$/, '').replace(dir, '')} ${String(r.k)}=${String(r.v)}`)
    .sort();
}

/** The lane's run succeeded and wrote what the record path wrote: counts, rows and file metadata. */
async function expectSameParquet(onLane: Awaited<ReturnType<typeof runIn>>, onRecords: Awaited<ReturnType<typeof runIn>>): Promise<void> {
  expect(onLane.result.status).toBe('succeeded');
  expect(onLane.result.manifest.rows).toEqual(onRecords.result.manifest.rows);
  const rows = await parquetRows(onLane.outputDir);
  expect(rows.length).toBeGreaterThan(5000);
  expect(rows).toEqual(await parquetRows(onRecords.outputDir));
  expect(await parquetMetadata(onLane.outputDir)).toEqual(await parquetMetadata(onRecords.outputDir));
}

describe('the K-line lane writes what the record path writes', () => {
  // `all`: every behaviour at once (shuffled pages, other number forms and unknown fields take the
  // record path page by page); the others keep most pages on the lane.
  const mostlyOnLane = ['', 'descending', 'short-pages=0.5,missing-bars=0.02,descending,overlap'];
  for (const behaviours of [...mostlyOnLane, 'all']) {
    it(`Parquet, emulator behaviours "${behaviours || 'none'}"`, async () => {
      seen.raw = seen.parsed = seen.batches = 0;
      const onLane = await runIn(behaviours, true, 'parquet');
      const laneSeen = { ...seen };
      seen.raw = seen.parsed = seen.batches = 0;
      const onRecords = await runIn(behaviours, false, 'parquet');
      expect(seen.raw).toBe(0);
      expect(seen.parsed).toBe(0);

      await expectSameParquet(onLane, onRecords);
      // The lane was taken (stocks' newest bars and empty batches never are), and parse-decimals
      // kept it: every value the emulator gives fits DECIMAL(38,18), so the scanner folds them
      // all (SHIBUSDT's hourly turnovers have 16 digits and more).
      if (mostlyOnLane.includes(behaviours)) {
        expect(laneSeen.raw).toBeGreaterThan(laneSeen.batches * 0.5);
        expect(laneSeen.parsed).toBe(laneSeen.raw);
      }
      expect(laneSeen.parsed).toBeLessThanOrEqual(laneSeen.raw);
    });
  }

  it('a sink narrower than the values: the same rows kept and the same records rejected', async () => {
    const onLane = await runIn('descending', true, 'parquet', true);
    const onRecords = await runIn('descending', false, 'parquet', true);
    expect(onLane.result.manifest.rows).toEqual(onRecords.result.manifest.rows);
    expect(onLane.result.manifest.rows.kline?.rejected).toBeGreaterThan(0);
    expect(onLane.result.manifest.rows.kline?.written).toBeGreaterThan(5000);
    expect(await parquetRows(onLane.outputDir)).toEqual(await parquetRows(onRecords.outputDir));
    expect(await rejectedLines(onLane.outputDir)).toEqual(await rejectedLines(onRecords.outputDir));
  });

  it('batches split below a page (batchMaxRows 128, each piece with its cut of the lane): the same rows and files', async () => {
    const onLane = await runIn('descending', true, 'parquet', false, 128);
    const onRecords = await runIn('descending', false, 'parquet', false, 128);
    await expectSameParquet(onLane, onRecords);
  });

  it('Arrow IPC: the same rows', async () => {
    const onLane = await runIn('descending', true, 'arrow');
    const onRecords = await runIn('descending', false, 'arrow');
    expect(onLane.result.manifest.rows).toEqual(onRecords.result.manifest.rows);
    const rows = await arrowRows(onLane.outputDir);
    expect(rows.length).toBeGreaterThan(5000);
    expect(rows).toEqual(await arrowRows(onRecords.outputDir));
  });
});
