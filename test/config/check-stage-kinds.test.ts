/** Stages checked against each other: messages, positions and hints, for YAML and definePipeline(). */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { components } from '../../src/components.js';
import { checkStageKinds } from '../../src/config/check-stage-kinds.js';
import { definePipeline } from '../../src/config/define-pipeline.js';
import { loadPipeline } from '../../src/config/load-pipeline.js';
import { parsePipelineYaml, PipelineConfigError, validatePipeline } from '../../src/config/parse-pipeline.js';
import type { ComponentDefinition, SinkDefinition, SourceDefinition, TransformDefinition } from '../../src/core/definition.js';
import { RECORD_KINDS, type RecordKind } from '../../src/core/record-kinds.js';

function problemsOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof PipelineConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a PipelineConfigError');
}

describe('stage kinds in a YAML pipeline', () => {
  it('refuses kline-history → parquet without parse-decimals, at the sink, saying what to add', () => {
    const text = ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'sink:', '  type: parquet', ''].join('\n');
    const problems = problemsOf(() => parsePipelineYaml(text, { registry: components, file: 'pipelines/x.yaml' }));
    expect(problems).toEqual([
      {
        message: 'sink: parquet takes parsed K-lines but source kline-history emits raw K-lines: add "- type: parse-decimals" to transforms before the sink',
        line: 7,
        column: 3,
      },
    ]);
  });

  it('refuses normalize-halts on K-lines at the transform, saying what to put there instead', () => {
    const text = [
      'name: x',
      'source:',
      '  type: kline-history',
      '  codes: [BTCUSDT]',
      '  intervals: [1m]',
      'transforms:',
      '  - type: normalize-halts',
      'sink:',
      '  type: parquet',
      '',
    ].join('\n');
    try {
      parsePipelineYaml(text, { registry: components, file: 'pipelines/x.yaml' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PipelineConfigError);
      expect((e as Error).message).toBe(
        'pipelines/x.yaml:7:5: transforms[0]: normalize-halts takes raw halts but source kline-history emits raw K-lines: replace it with "- type: parse-decimals"',
      );
      expect((e as PipelineConfigError).code).toBe('QL_CONFIG');
    }
  });

  it('refuses a transform that has nothing left to do, and parse-decimals on halts', () => {
    const twice = 'name: x\nsource: { type: trade-snapshot, codes: [BTCUSDT] }\ntransforms:\n  - type: parse-decimals\n  - type: parse-decimals\nsink: { type: ndjson }\n';
    expect(problemsOf(() => parsePipelineYaml(twice, { registry: components }))).toEqual([
      { message: 'transforms[1]: parse-decimals takes raw trades but transforms[0] parse-decimals emits parsed trades: remove it', line: 5, column: 5 },
    ]);
    const halts = 'name: x\nsource: { type: trading-halts }\ntransforms: [{ type: parse-decimals }]\nsink: { type: arrow }\n';
    expect(problemsOf(() => parsePipelineYaml(halts, { registry: components }))).toEqual([
      {
        message: 'transforms[0]: parse-decimals takes raw K-lines, raw trades or raw order books but source trading-halts emits raw halts: replace it with "- type: normalize-halts"',
        line: 3,
        column: 14,
      },
    ]);
  });

  it('accepts the fitting chains, including raw records into ndjson', () => {
    for (const text of [
      'name: x\nsource: { type: trading-halts }\ntransforms: [{ type: normalize-halts }]\nsink: { type: parquet }\n',
      'name: x\nsource: { type: depth-snapshot, codes: [BTCUSDT] }\ntransforms: [{ type: parse-decimals }]\nsink: { type: arrow }\n',
      'name: x\nsource: { type: kline-latest, codes: [BTCUSDT], intervals: [1m] }\nsink: { type: ndjson }\n',
    ]) {
      expect(() => parsePipelineYaml(text, { registry: components })).not.toThrow();
    }
  });
});

describe('stage kinds beside a problem elsewhere in the file', () => {
  // The stages' fit used to be checked only once every stage had passed its own schema: a bad
  // option hid it until the next run of validate.
  it('names a bad option of the source and a transform that does not fit, each at its place, in file order', () => {
    const text = ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [7x]', 'transforms:', '  - type: normalize-halts', 'sink:', '  type: parquet', ''].join('\n');
    expect(problemsOf(() => parsePipelineYaml(text, { registry: components, file: 'pipelines/x.yaml' }))).toEqual([
      { message: 'source.intervals[0]: "7x" is not one of 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo', line: 5, column: 15 },
      { message: 'transforms[0]: normalize-halts takes raw halts but source kline-history emits raw K-lines: replace it with "- type: parse-decimals"', line: 7, column: 5 },
    ]);
  });

  it('checks the kind of a stage whose own option is wrong (kinds come with its type) and the sink after it', () => {
    const text = ['name: x', 'source: { type: trading-halts }', 'transforms:', '  - type: parse-decimals', '    decimal: { precision: 99, scale: 2 }', 'sink: { type: parquet }', ''].join('\n');
    const problems = problemsOf(() => parsePipelineYaml(text, { registry: components }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toEqual({
      message: 'transforms[0]: parse-decimals takes raw K-lines, raw trades or raw order books but source trading-halts emits raw halts: replace it with "- type: normalize-halts"',
      line: 4,
      column: 5,
    });
    expect(problems[1]).toMatchObject({ line: 5, column: 27 });
    expect(problems[1]!.message).toMatch(/^transforms\[0\]\.decimal\.precision: 99 must be at most 38/);
  });

  it('says nothing of the chain past a stage of unknown type: what it emits is unknown', () => {
    const text = ['name: x', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimal', 'sink:', '  type: parquet', ''].join('\n');
    const problems = problemsOf(() => parsePipelineYaml(text, { registry: components }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 7 });
    expect(problems[0]!.message).toContain('parse-decimal');
    expect(problems[0]!.message).not.toContain('parquet takes');
  });

  it('names both in a definePipeline() pipeline, in the order of the stages', () => {
    const input = { name: 'x', source: { type: 'trading-halts', exchanges: ['mars'] }, transforms: [], sink: { type: 'parquet' } };
    const messages = problemsOf(() => validatePipeline(input, { registry: components })).map((p) => p.message);
    expect(messages).toEqual([
      expect.stringMatching(/^source\.exchanges\[0\]: "mars" is not one of /),
      'sink: parquet takes normalized halts but source trading-halts emits raw halts: add "- type: normalize-halts" to transforms before the sink',
    ]);
  });
});

describe('stage kinds in a definePipeline() pipeline', () => {
  const pipeline = definePipeline({
    name: 'x',
    source: { type: 'trading-halts' },
    transforms: [],
    sink: { type: 'parquet' },
  });

  it('names the stage path (there are no positions)', () => {
    expect(problemsOf(() => validatePipeline(pipeline, { registry: components }))).toEqual([
      { message: 'sink: parquet takes normalized halts but source trading-halts emits raw halts: add "- type: normalize-halts" to transforms before the sink' },
    ]);
  });

  it('is refused by loadPipeline with the module file named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ql-kinds-'));
    const file = join(dir, 'p.mjs');
    await writeFile(file, `export default ${JSON.stringify(pipeline)};\n`);
    await expect(loadPipeline(file, components)).rejects.toThrow(
      `${file}: sink: parquet takes normalized halts but source trading-halts emits raw halts: add "- type: normalize-halts" to transforms before the sink`,
    );
  });
});

describe('hints come from the registry', () => {
  // A made-up registry: `a` records need two steps (a→b→c) before the only sink takes them.
  const schema = z.object({});
  const base = { summary: 's', configSchema: schema, examples: [{}] };
  const source = { ...base, kind: 'source', type: 'src', emits: 'raw-kline', dataset: () => 'kline', create: () => ({}) } as unknown as SourceDefinition;
  const step1 = { ...base, kind: 'transform', type: 'step-one', maps: { 'raw-kline': 'raw-trade' }, create: () => ({}) } as unknown as TransformDefinition;
  const step2 = { ...base, kind: 'transform', type: 'step-two', maps: { 'raw-trade': 'trade-row' }, create: () => ({}) } as unknown as TransformDefinition;
  const sink = { ...base, kind: 'sink', type: 'out', takes: ['trade-row'], create: () => ({}) } as unknown as SinkDefinition;
  const registry: ComponentDefinition[] = [source, step1, step2, sink];

  it('names every stage of the shortest bridge', () => {
    expect(checkStageKinds({ source: { type: 'src' }, transforms: [], sink: { type: 'out' } }, registry)).toEqual([
      { path: ['sink'], message: 'out takes parsed trades but source src emits raw K-lines: add "- type: step-one" then "- type: step-two" to transforms before the sink' },
    ]);
    expect(checkStageKinds({ source: { type: 'src' }, transforms: [{ type: 'step-two' }], sink: { type: 'out' } }, registry)).toEqual([
      { path: ['transforms', 0], message: 'step-two takes raw trades but source src emits raw K-lines: add "- type: step-one" to transforms before it' },
    ]);
    expect(checkStageKinds({ source: { type: 'src' }, transforms: [{ type: 'step-one' }, { type: 'step-two' }], sink: { type: 'out' } }, registry)).toEqual([]);
  });

  it('leaves unknown types to the schema', () => {
    expect(checkStageKinds({ source: { type: 'nope' }, transforms: [], sink: { type: 'out' } }, registry)).toEqual([]);
    expect(checkStageKinds({ source: { type: 'src' }, transforms: [{ type: 'nope' }], sink: { type: 'out' } }, registry)).toEqual([]);
  });
});

describe('the registry declares kinds that agree with the datasets', () => {
  it('every source emits a kind of its own dataset; every transform and sink takes something', () => {
    for (const def of components) {
      if (def.kind === 'source') {
        const example = def.configSchema.parse(def.examples[0]);
        expect(RECORD_KINDS[def.emits as RecordKind].dataset, def.type).toBe(def.dataset(example));
      } else if (def.kind === 'transform') {
        expect(Object.keys(def.maps).length, def.type).toBeGreaterThan(0);
      } else {
        expect(def.takes.length, def.type).toBeGreaterThan(0);
      }
    }
  });

  it('declares what the code really does (as the README reference shows it)', () => {
    const kinds = Object.fromEntries(
      components.map((d) => [d.type, d.kind === 'source' ? d.emits : d.kind === 'transform' ? d.maps : d.takes]),
    );
    expect(kinds).toEqual({
      'kline-history': 'raw-kline',
      'kline-latest': 'raw-kline',
      'depth-snapshot': 'raw-depth',
      'trade-snapshot': 'raw-trade',
      'trading-halts': 'raw-halt',
      'parse-decimals': { 'raw-kline': 'kline-row', 'raw-trade': 'trade-row', 'raw-depth': 'depth-row' },
      'normalize-halts': { 'raw-halt': 'halt-row' },
      parquet: ['kline-row', 'trade-row', 'depth-row', 'halt-row'],
      arrow: ['kline-row', 'trade-row', 'depth-row', 'halt-row'],
      ndjson: ['raw-kline', 'raw-trade', 'raw-depth', 'raw-halt', 'kline-row', 'trade-row', 'depth-row', 'halt-row'],
    });
  });
});

describe('components written outside quotelake', () => {
  const parquet = components.find((c) => c.kind === 'sink' && c.type === 'parquet') as SinkDefinition;
  const plain = (extra: Record<string, unknown>) =>
    ({ kind: 'source', type: 'plain-js', summary: 's', configSchema: z.object({}), examples: [], dataset: () => 'kline', create: () => ({}), ...extra }) as unknown as SourceDefinition;

  it('a source that declares no kind is refused by name, not by a crash', () => {
    const chain = { source: { type: 'plain-js' }, transforms: [], sink: { type: 'parquet' } };
    const [finding] = checkStageKinds(chain, [plain({}), parquet]);
    expect(finding!.path).toEqual(['source']);
    expect(finding!.message).toMatch(/^source plain-js declares no record kind it emits: give its definition emits: one of raw-kline, /);
    expect(checkStageKinds(chain, [plain({ emits: 'kline-row' }), parquet])).toEqual([]);
  });
});
