import { DateTime } from 'luxon';
import type { HaltExchange, WireHaltRecord } from '../../../src/emulator/contracts.js';

/** The layouts of decision S3, written out here independently of the generator. */
const NYSE = [
  'symbol', 'symbolName', 'haltReason', 'haltDate', 'haltTime', 'haltDateTime',
  'resumeDate', 'resumeTime', 'resumeDateTime', 'sourceExchange', 'publishDate',
];
export const LAYOUTS: Readonly<Record<HaltExchange, readonly string[]>> = {
  sse: ['symbol', 'symbolName', 'haltReason', 'haltDate', 'haltTime', 'haltPeriod', 'resumeDate', 'resumeTime', 'publishDate'],
  nyse: NYSE,
  nasdaq: [...NYSE, 'pauseThresholdPrice'],
};

export const ZONES: Readonly<Record<HaltExchange, string>> = {
  sse: 'Asia/Shanghai',
  nyse: 'America/New_York',
  nasdaq: 'America/New_York',
};

export const EXCHANGES: readonly HaltExchange[] = ['sse', 'nyse', 'nasdaq'];

/** A value is present when it is a non-empty string (S4: null, "" and absent all mean none). */
export function has(record: WireHaltRecord, key: string): boolean {
  const v = record[key];
  return typeof v === 'string' && v !== '';
}

export function text(record: WireHaltRecord, key: string): string {
  const v = record[key];
  if (typeof v !== 'string' || v === '') throw new Error(`no ${key} in ${JSON.stringify(record)}`);
  return v;
}

/** The publication instant as luxon reads the local text (gap times move forward). */
export function publishMs(exchange: HaltExchange, record: WireHaltRecord): number {
  return DateTime.fromFormat(text(record, 'publishDate'), 'yyyy-MM-dd HH:mm:ss', { zone: ZONES[exchange] }).toMillis();
}

/** Identity: symbol, halt start and publication time; the halt start is never blank. */
export function identity(exchange: HaltExchange, record: WireHaltRecord): string {
  const start = exchange === 'sse' ? text(record, 'haltDate') : text(record, 'haltDateTime');
  return `${text(record, 'symbol')}|${start}|${text(record, 'publishDate')}`;
}

export const RESUME_FIELDS: Readonly<Record<HaltExchange, readonly string[]>> = {
  sse: ['resumeDate', 'resumeTime'],
  nyse: ['resumeDate', 'resumeTime', 'resumeDateTime'],
  nasdaq: ['resumeDate', 'resumeTime', 'resumeDateTime'],
};
