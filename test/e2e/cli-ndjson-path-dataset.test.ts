/**
 * An NDJSON sink path whose first folder is `{dataset}` is refused naming the dataset the pipeline's
 * source writes: `trade` for a trade source. Before, it named the first dataset of all, `kline`,
 * whatever the source, sending the reader to a folder the pipeline never writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const withSource = (source: string, path: string) => `name: p\nservice:\n  plan: professional\nsource:\n${source}sink:\n  type: ndjson\n  path: "${path}"\n`;

describe('an NDJSON path in the folder of {dataset}', () => {
  it.each([
    ['trade', '  type: trade-snapshot\n  codes: [BTCUSDT]\n', '{dataset}/{dataset}.ndjson'],
    ['halt', '  type: trading-halts\n  exchanges: [nyse]\n', './{dataset}/all.ndjson'],
  ])('names the %s dataset of its source', async (dataset, source, path) => {
    const dir = tempDir('ql-ndjson-dataset-');
    const file = join(dir, 'p.yaml');
    writeFileSync(file, withSource(source, path));
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `quotelake: ${file}:${source.split('\n').length + 6}:9: sink.path: "${path}" is in the ${dataset} dataset's folder, which holds the lake's own data files (${dataset} is the dataset this pipeline's source writes): give a file in a folder of your own, e.g. exports/{dataset}.ndjson\n`,
    );
    expect(r.stderr).not.toContain('kline');
  });
});
