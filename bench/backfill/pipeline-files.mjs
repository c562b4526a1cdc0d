// The files the backfill bench runs with, written into its scratch folder: the K-line backfill a
// user would write (real kline-history source with its default concurrency and prefetch,
// parse-decimals, Parquet sink), and the client plans file of the unthrottled replay plan.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const CODES = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT', 'EURUSD', 'GBPUSD', 'USDJPY', 'GOLD', 'Silver', 'XPTUSD'];

export async function writePipeline(dir, name, since) {
  const file = join(dir, `${name}.yaml`);
  const text = [
    `name: ${name}`,
    'service:',
    '  plan: professional',
    'source:',
    '  type: kline-history',
    `  codes: [${CODES.join(', ')}]`,
    '  intervals: [1m]',
    `  since: ${since}`,
    'transforms:',
    '  - type: parse-decimals',
    'sink:',
    '  type: parquet',
    '',
  ].join('\n');
  await writeFile(file, text);
  return file;
}

/** Client plans file with one plan, `replay`, that paces nothing (the emulator runs --no-limits). */
export async function writeReplayPlans(dir) {
  const file = join(dir, 'plans.yaml');
  const text = ['plans:', '  - name: replay', '    perSecond: unlimited', '    perMinute: unlimited', '    perDay: unlimited', '    batchKlineGapMs: 0', ''].join('\n');
  await writeFile(file, text);
  return file;
}
