/**
 * A library run of a source that talks to the service, without a client (or with something that
 * is not one), is refused before it touches the output: no layout file, lake id or failed run
 * record left behind for a run that never started. Through the package's entry point, as a
 * program calls it.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components, definePipeline, runPipeline } from '../../src/index.js';

const pipelines = [
  definePipeline({ name: 'btc-hours', source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1h'], since: '2d' }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } }),
  definePipeline({ name: 'trades', source: { type: 'trade-snapshot', codes: ['BTCUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson', path: 'exports/{dataset}.ndjson' } }),
];

describe('runPipeline without a service client', () => {
  it.each(pipelines.map((p) => [p.name, p] as const))('%s: refused with QL_CONFIG, the output folder left as it was', async (_name, pipeline) => {
    const root = mkdtempSync(join(tmpdir(), 'ql-no-client-'));
    const outputDir = join(root, 'lake');
    await expect(runPipeline(pipeline, { registry: components, outputDir })).rejects.toMatchObject({
      code: 'QL_CONFIG',
      message: `source ${pipeline.source.type} needs the service client (set the base URL, token and plan)`,
    });
    expect(existsSync(outputDir)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
  });

  it('something that is not a client is refused the same way, naming what it was', async () => {
    const outputDir = join(mkdtempSync(join(tmpdir(), 'ql-no-client-')), 'lake');
    await expect(runPipeline(pipelines[0]!, { registry: components, outputDir, client: 'demo-professional' })).rejects.toThrow(
      'source kline-history needs the service client, and was given a string: pass what createClient() returns (RunOptions.client)',
    );
    expect(existsSync(outputDir)).toBe(false);
  });
});
