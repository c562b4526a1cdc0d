/**
 * A value listed twice in a source's list is said at its own line and column even when another
 * item of the same list is wrong: zod skips a list's checks once an item failed, which hid the
 * repeat until the other problem was fixed. Through the built CLI's validate.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const HALTS = 'name: h\nsource:\n  type: trading-halts\n  exchanges: EXCHANGES\ntransforms:\n  - type: normalize-halts\nsink:\n  type: parquet\n';
const KLINES = 'name: k\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: INTERVALS\n  since: 1d\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

function pipelineFile(name: string, text: string): string {
  const file = join(tempDir('ql-repeated-'), name);
  writeFileSync(file, text);
  return file;
}

const problemLines = (stderr: string, file: string): string[] => stderr.split('\n').filter((l) => l.startsWith(`${file}:`));

describe('a repeated list value beside another problem of the list', () => {
  it('exchanges: the repeat and the unknown or wrong-case exchange are each said at their place', async () => {
    const unknown = pipelineFile('unknown.yaml', HALTS.replace('EXCHANGES', '[sse, sse, foo]'));
    const wrongCase = pipelineFile('case.yaml', HALTS.replace('EXCHANGES', '[SSE, SSE, FOO]'));
    const beside = pipelineFile('beside.yaml', HALTS.replace('EXCHANGES', '[nyse, SSE, nyse]'));
    const r = await runCli(['validate', unknown, wrongCase, beside]);
    expect(r.code).toBe(2);
    const again = (i: number, value: string, at: number) => `source.exchanges[${i}]: "${value}" is listed already, at exchanges[${at}]: remove one (or write the value you meant)`;
    expect(problemLines(r.stderr, unknown)).toEqual([`${unknown}:4:20: ${again(1, 'sse', 0)}`, `${unknown}:4:25: source.exchanges[2]: "foo" is not one of sse, nyse, nasdaq`]);
    expect(problemLines(r.stderr, wrongCase)).toEqual([
      `${wrongCase}:4:15: source.exchanges[0]: "SSE" is not one of sse, nyse, nasdaq; did you mean "sse"?`,
      `${wrongCase}:4:20: source.exchanges[1]: "SSE" is not one of sse, nyse, nasdaq; did you mean "sse"?`,
      `${wrongCase}:4:20: ${again(1, 'SSE', 0)}`,
      `${wrongCase}:4:25: source.exchanges[2]: "FOO" is not one of sse, nyse, nasdaq`,
    ]);
    expect(problemLines(r.stderr, beside)).toEqual([
      `${beside}:4:21: source.exchanges[1]: "SSE" is not one of sse, nyse, nasdaq; did you mean "sse"?`,
      `${beside}:4:26: ${again(2, 'nyse', 0)}`,
    ]);
  });

  it('intervals: a repeat beside an unknown interval is said too', async () => {
    const file = pipelineFile('intervals.yaml', KLINES.replace('INTERVALS', '[1m, 1m, 7m]'));
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(2);
    expect(problemLines(r.stderr, file)).toEqual([
      `${file}:5:19: source.intervals[1]: "1m" is listed already, at intervals[0]: remove one (or write the value you meant)`,
      `${file}:5:23: source.intervals[2]: "7m" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo; did you mean "1m"?`,
    ]);
  });
});
