/** The pipeline `quotelake init` writes: valid for every source and sink, every key explained, defaults shown. */
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { components } from '../../src/components.js';
import { firstCommentLine, parsePipelineYaml } from '../../src/config/parse-pipeline.js';
import { pipelineTemplate } from '../../src/config/pipeline-template.js';

const sources = components.filter((d) => d.kind === 'source').map((d) => d.type);
const sinks = components.filter((d) => d.kind === 'sink').map((d) => d.type);

describe('pipelineTemplate', () => {
  it.each(sources.flatMap((source) => sinks.map((sink) => [source, sink] as const)))('%s into %s validates as written', (source, sink) => {
    const text = pipelineTemplate(components, { name: 'my-one', source, sink });
    const pipeline = parsePipelineYaml(text, { registry: components, file: 'my-one.yaml' });
    expect(pipeline.name).toBe('my-one');
    expect(pipeline.source.type).toBe(source);
    expect(pipeline.sink.type).toBe(sink);
    // The stage that turns raw records into typed rows, for ndjson too (exact decimal strings, UTC instants).
    const expected = [source === 'trading-halts' ? 'normalize-halts' : 'parse-decimals'];
    expect(pipeline.transforms.map((t) => t.type)).toEqual(expected);
  });

  it('sets the source example, comments out every other key with its default, explains each one', () => {
    const text = pipelineTemplate(components, { name: 'my-klines', source: 'kline-history', sink: 'parquet', schemaPath: '../pipeline.schema.json' });
    const lines = text.split('\n');
    expect(lines[0]).toBe('# yaml-language-server: $schema=../pipeline.schema.json');
    expect(firstCommentLine(parseDocument(text))).toMatch(/^kline-history into parquet: K-line history of codes x intervals/);
    for (const line of ['name: my-klines', '  codes: [BTCUSDT, EURUSD]', '  intervals: [1m]', '  since: 30d', '  # concurrency: 4', '  # until:', '    # decimal: { precision: 38, scale: 18 }', '#   onReject: divert', '#   plan:']) {
      expect(lines).toContain(line);
    }
    // The description above a key: the schema's, with the choices of an enum.
    const at = lines.indexOf('  # concurrency: 4');
    // A long one wraps under 100 columns, each line still a comment at the key's indent.
    expect(lines.slice(at - 2, at)).toEqual([
      "  # Series fetched side by side (the plan's limits still apply); the series furthest behind in time",
      '  # goes next, so all advance together.',
    ]);
    expect(lines[lines.indexOf('#   onReject: divert') - 1]).toBe('#   # What to do with a rejected record. One of: fail, drop, divert.');
    expect(lines.every((l) => l.length <= 100 || l.startsWith('# kline-history into parquet'))).toBe(true);
    // No editor directive when the schema file is not there to point at.
    expect(pipelineTemplate(components, { name: 'x', source: 'kline-history', sink: 'parquet' })).not.toContain('yaml-language-server');
  });

  it('uncommenting a section and a default key keeps the pipeline valid', () => {
    const text = pipelineTemplate(components, { name: 'x', source: 'trade-snapshot', sink: 'arrow' })
      .replace('# options:', 'options:')
      .replace('#   onReject: divert', '  onReject: drop');
    expect(parsePipelineYaml(text, { registry: components }).options.onReject).toBe('drop');
  });
});
