import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsFromPipeline } from '../../src/config/apply-settings.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import { resolveSettings } from '../../src/config/resolve-settings.js';
import { registry } from '../../src/cli/registry.js';
import { resolveRunSettings } from '../../src/cli/run-settings.js';

const source = 'source: { type: kline-history, codes: [BTCUSDT], intervals: [1m], since: 2026-11-01T00:00:00Z }\ntransforms: [{ type: parse-decimals }]';

async function pipelineFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'ql-sink-output-')), 'p.yaml');
  await writeFile(file, text);
  return file;
}

describe('sink.output', () => {
  it('names the output root as options.outputDir does (a folder or s3://), and --output still wins', async () => {
    const file = await pipelineFile(`name: p\n${source}\nsink: { type: parquet, output: s3://lake/quotes }\n`);
    const pipeline = await loadPipeline(file, registry);
    const { settings } = resolveSettings({ file: settingsFromPipeline(pipeline) });
    expect(settings.outputDir).toBe('s3://lake/quotes');
    expect(settings.stateDir).toBe('s3://lake/quotes/_quotelake/state');
    expect(resolveSettings({ flags: { outputDir: 'out' }, file: settingsFromPipeline(pipeline) }).settings.outputDir).toBe('out');
    // What run, plan, state and compact resolve (before, they read options.outputDir alone: ./output).
    expect(resolveRunSettings(pipeline, {}, {}, file).settings.outputDir).toBe('s3://lake/quotes');
    expect(resolveRunSettings(pipeline, { output: 'out' }, {}, file).settings.outputDir).toBe('out');
  });

  it('refuses a bad URL and a second, different output, at the line and column of sink.output', async () => {
    const bad = await pipelineFile(`name: p\n${source}\nsink:\n  type: parquet\n  output: s3://Bad_Bucket/x\n`);
    await expect(loadPipeline(bad, registry)).rejects.toThrow(new RegExp(`${bad}:6:\\d+: sink\\.output: .*bucket`, 'i'));
    const two = await pipelineFile(`name: p\n${source}\nsink:\n  type: ndjson\n  output: a\noptions: { outputDir: b }\n`);
    await expect(loadPipeline(two, registry)).rejects.toThrow(`${two}:6:11: sink.output: "a" names another output than options.outputDir (b); give the output in one place`);
    const same = await pipelineFile(`name: p\n${source}\nsink: { type: arrow, output: a }\noptions: { outputDir: a }\n`);
    expect((await loadPipeline(same, registry)).options.outputDir).toBe('a');
  });
});
