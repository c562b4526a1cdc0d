/**
 * A table whose metaData someone else wrote after version 0: another engine setting a table
 * property (the same schema, serialised its own way) leaves it quotelake's to append to; a newer
 * writer's added column, or an older one's missing column, is refused before anything is written,
 * with the columns named.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import type { PartitionedSink } from '../../../src/lake/commit/partitioned-sink.js';
import { commitKey, readDeltaSnapshot, type MetaDataAction } from '../../../src/lake/delta/index.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { klineRows, rawKline, T0 } from '../../sinks/fixtures.js';
import { runContext, tempDir } from '../../sinks/helpers.js';
import { deltaKlineSink } from './delta-kline-sink.js';

const opened: PartitionedSink<unknown>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

function sinkOf(out: string): PartitionedSink<unknown> {
  const s = deltaKlineSink(out);
  opened.push(s);
  return s;
}

async function commitBar(out: string, day: number, run: string): Promise<void> {
  const s = sinkOf(out);
  await s.recover(runContext(run));
  await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0 + 86_400 * day, '100.5')]) }, runContext(run));
  await s.commit(runContext(run));
}

interface SchemaJson {
  type: string;
  fields: { name: string; type: unknown; nullable: boolean; metadata: object }[];
}

/** Version 1 by another writer: a metaData whose schema `change` makes from the table's. */
async function foreignMetaData(out: string, change: (schema: SchemaJson) => string, configuration: Record<string, string> = {}): Promise<void> {
  const storage = localStorage(out);
  const table = (await readDeltaSnapshot(storage, 'kline'))!;
  const metaData: MetaDataAction = { ...table.metaData, schemaString: change(JSON.parse(table.metaData.schemaString) as SchemaJson), configuration };
  const lines = [{ commitInfo: { timestamp: T0 * 1000, operation: 'SET TBLPROPERTIES', operationParameters: {}, engineInfo: 'another-engine' } }, { metaData }];
  expect(await storage.putIfAbsent(commitKey('kline', 1), lines.map((l) => JSON.stringify(l)).join('\n') + '\n')).toBe(true);
}

/** The same schema with each field's keys in another order and spaces between them. */
const reserialised = (schema: SchemaJson) => JSON.stringify({ fields: schema.fields.map((f) => ({ metadata: f.metadata, nullable: f.nullable, type: f.type, name: f.name })), type: schema.type }, null, 1);

describe('a Delta table whose metaData another writer set', () => {
  it('takes files when the schema is the same, however it is serialised', async () => {
    const out = await tempDir('ql-delta-foreign-');
    await commitBar(out, 0, 'r1');
    await foreignMetaData(out, reserialised, { 'delta.logRetentionDuration': 'interval 90 days' });
    await commitBar(out, 1, 'r2');
    const snapshot = (await readDeltaSnapshot(localStorage(out), 'kline'))!;
    expect(snapshot.version).toBe(2);
    expect(snapshot.files.size).toBe(2);
    expect(snapshot.metaData.configuration).toEqual({ 'delta.logRetentionDuration': 'interval 90 days' });
  });

  it('refuses a table with a column this quotelake does not write, or without one it writes, naming them', async () => {
    for (const [change, named] of [
      [(s: SchemaJson) => JSON.stringify({ ...s, fields: [...s.fields.slice(0, 9), { name: 'source', type: 'string', nullable: true, metadata: {} }, ...s.fields.slice(9)] }), 'columns only in the log: source (string, nullable)'],
      [(s: SchemaJson) => JSON.stringify({ ...s, fields: s.fields.filter((f) => f.name !== 'final') }), 'columns the log lacks: final (boolean)'],
      [(s: SchemaJson) => JSON.stringify({ ...s, fields: s.fields.map((f) => (f.name === 'code' ? { ...f, nullable: true } : f)) }), 'columns of another type: code (string, nullable in the log, string here)'],
    ] as const) {
      const out = await tempDir('ql-delta-foreign-');
      await commitBar(out, 0, 'r1');
      await foreignMetaData(out, change);
      const error = await sinkOf(out).recover(runContext('r2')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`kline schema this quotelake writes at DECIMAL(38,18) (${named}): a table another version or engine changed takes no files of this one`);
      expect((await readDeltaSnapshot(localStorage(out), 'kline'))!.version).toBe(1);
    }
  });
});
