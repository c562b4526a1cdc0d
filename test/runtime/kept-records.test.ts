/**
 * A transform of the user's own may keep a batch's records and read them after the run (a side
 * channel, a tap): the parquet sink must not hand the page behind them back for reuse, and a read
 * that fails must keep failing, never yield holes that read as undefined rows.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { components } from '../../src/components.js';
import type { Transform } from '../../src/core/component.js';
import type { ComponentDefinition, TransformDefinition } from '../../src/core/definition.js';
import { lazyRows } from '../../src/core/lazy-rows.js';
import type { KlineRow, RawKline } from '../../src/core/records.js';
import { tempDir } from '../sinks/helpers.js';
import { run } from '../sources/helpers/run.js';
import { startWorld, type World } from '../sources/helpers/world.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function tap(type: string, kind: 'raw-kline' | 'kline-row', kept: (readonly unknown[])[]): TransformDefinition<Record<string, never>> {
  return {
    kind: 'transform',
    type,
    summary: 'Keeps every batch it sees, unread',
    configSchema: z.strictObject({}),
    maps: { [kind]: kind },
    examples: [{}],
    create: (): Transform<unknown, unknown> => ({
      apply: (batch) => {
        kept.push(batch.records);
        return { output: batch, rejected: [] };
      },
    }),
  };
}

describe('records a user transform keeps', () => {
  it('stay readable after the parquet sink took their lane', async () => {
    const raw: (readonly unknown[])[] = [];
    const parsed: (readonly unknown[])[] = [];
    const registry: readonly ComponentDefinition[] = [...components, tap('tap-raw', 'raw-kline', raw) as ComponentDefinition, tap('tap-parsed', 'kline-row', parsed) as ComponentDefinition];
    world = await startWorld('2026-11-23T13:00:00.000Z');
    const outputDir = await tempDir('ql-kept-');
    const result = await run(
      {
        name: 'kept',
        source: { type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT'], intervals: ['1m'], since: '3d' },
        transforms: [{ type: 'tap-raw' }, { type: 'parse-decimals' }, { type: 'tap-parsed' }],
        sink: { type: 'parquet' },
      },
      { registry, outputDir, client: world.client('professional'), clock: world.clock },
    );
    expect(result.status).toBe('succeeded');
    const rows = parsed.flatMap((records) => [...(records as readonly KlineRow[])]);
    expect(rows).toHaveLength(result.manifest.rows.kline!.written);
    expect(rows.every((r) => r !== undefined && typeof r.close === 'string' && Number.isFinite(r.ts))).toBe(true);
    expect(new Set(rows.map((r) => `${r.code} ${r.ts}`)).size).toBe(rows.length);
    const bars = raw.flatMap((records) => [...(records as readonly RawKline[])]);
    expect(bars).toHaveLength(rows.length);
    expect(bars.every((b) => typeof b.bar.close_price === 'string')).toBe(true);
  });
});

describe('lazyRows', () => {
  it('throws again at the next read when making the rows failed, never reads as holes', () => {
    let calls = 0;
    const rows = lazyRows<number>(2, () => {
      calls++;
      if (calls === 1) throw new Error('page recycled');
      return [1, 2];
    });
    expect(() => rows[0]).toThrow('page recycled');
    expect(rows[0]).toBe(1);
    expect([...rows]).toEqual([1, 2]);
  });
});

describe('a lazy row array on the console', () => {
  it('prints its rows, not the empty array behind it', () => {
    const rows = lazyRows<{ a: number }>(2, () => [{ a: 1 }, { a: 2 }]);
    expect(inspect(rows)).toBe('[ { a: 1 }, { a: 2 } ]');
    // Not an element: equality, keys and JSON see only the rows.
    expect(Object.keys(rows)).toEqual(['0', '1']);
    expect(JSON.stringify(rows)).toBe('[{"a":1},{"a":2}]');
    expect(rows).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
