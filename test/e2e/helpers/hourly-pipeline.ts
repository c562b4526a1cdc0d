/** The smallest K-line pipeline the queue tests enqueue: BTCUSDT 1h into Parquet, in a file of its own. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './cli.js';

export const HOURLY_BTC_LINES = (name: string): string[] => [`name: ${name}`, 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''];

/** Writes it as `<name>.yaml` in a new temp folder (or at `file`); returns the file's path. */
export function hourlyBtcPipeline(name: string, file = join(tempDir('ql-p-'), `${name}.yaml`)): string {
  writeFileSync(file, HOURLY_BTC_LINES(name).join('\n'));
  return file;
}
