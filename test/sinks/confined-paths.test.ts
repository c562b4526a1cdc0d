/**
 * Every file name built from input stays inside its root: an NDJSON sink `path` (refused by the
 * linter with its position, and again when the sink is created), hive partition values from the
 * service, the pipeline name of the state files and a run id.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import { PathOutsideRootError } from '../../src/core/errors.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { writeRunManifest, type RunManifest } from '../../src/runtime/run-manifest.js';
import { ndjsonSink } from '../../src/sinks/ndjson/index.js';
import { insideRoot, partitionSegment } from '../../src/lake/partition-path.js';
import { sinkEnv } from './helpers.js';

const ESCAPING = ['../x.ndjson', '/etc/x', 'sub/../../x', '..', 'a\\..\\x', `${'n'.repeat(256)}.ndjson`];

function pipelineWithPath(path: string): string {
  return `name: p\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\nsink:\n  type: ndjson\n  path: ${JSON.stringify(path)}\n`;
}

describe('an NDJSON sink path must stay inside the output folder', () => {
  it.each(ESCAPING)('validate refuses %j at the path, with what to do', (path) => {
    let error: unknown;
    try {
      parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PipelineConfigError);
    expect((error as PipelineConfigError).message).toMatch(/^p\.yaml:7:9: sink\.path: .* an NDJSON file must be inside the output folder; give a path relative to it/);
  });

  it.each(['stdout', '-', 'x.ndjson', 'exports/{dataset}.ndjson', 'sub/../x.ndjson', '%2e%2e/x.ndjson'])('validate accepts %j', (path) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).not.toThrow();
  });

  it.each(ESCAPING)('creating the sink refuses %j too (a config that skipped validation)', async (path) => {
    const out = await mkdtemp(join(tmpdir(), 'ql-ndjson-path-'));
    const config = { ...ndjsonSink.configSchema.parse({}), path };
    expect(() => ndjsonSink.create(config, sinkEnv(out, 'trade'))).toThrow(PathOutsideRootError);
    expect(await readdir(out)).toEqual([]);
  });
});

describe('an NDJSON sink path names a plain file', () => {
  it.each([
    ['x\0y', 'contains a control character (U+0000, NUL)'],
    ['x.ndjson\nfoo', 'contains a control character (U+000A, a line break)'],
    ['exports/\tx.ndjson', 'contains a control character (U+0009, a tab)'],
  ])('validate refuses a control character in %j at the path', (path, problem) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).toThrow(
      `p.yaml:7:9: sink.path: ${JSON.stringify(path)} ${problem}: a file name holds none; write the path without it`,
    );
  });

  it.each([
    ['{dataset}{dataset}/{code}.ndjson', '{code}'],
    ['exports/{Dataset}.ndjson', '{Dataset}'],
    ['exports/{}.ndjson', '{}'],
  ])('validate refuses %j: %s is no placeholder', (path, unknown) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).toThrow(
      `p.yaml:7:9: sink.path: ${JSON.stringify(path)} has ${unknown}, which is not a placeholder: only {dataset} is replaced (by kline, trade, depth, halt); write the name out`,
    );
  });

  it.each(['x\0y', 'x.ndjson\nfoo', 'exports/{code}.ndjson'])('creating the sink refuses %j too, and writes nothing', async (path) => {
    const out = await mkdtemp(join(tmpdir(), 'ql-ndjson-plain-'));
    const config = { ...ndjsonSink.configSchema.parse({}), path };
    expect(() => ndjsonSink.create(config, sinkEnv(out, 'trade'))).toThrow(/sink path|contains a NUL/);
    expect(await readdir(out)).toEqual([]);
  });

  it.each(['exports/{dataset}-{dataset}.ndjson', 'a{b.ndjson', 'a}b.ndjson'])('validate accepts %j', (path) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).not.toThrow();
  });
});

describe("an NDJSON sink path must stay out of the lake's own folders", () => {
  // A dataset folder (its files are data to a glob reader), the lake's _quotelake, _rejected and
  // .state, a path that only gets there through .., and {dataset} alone, which becomes the folder.
  const OWNED = ['kline/x.ndjson', 'trade/interval=1h/evil.parquet', '_quotelake/manifests/trade.parquet.json', '_rejected/x', '.state/checkpoints/p2.json', 'sub/../halt/x.ndjson', '{dataset}', '{dataset}/all.ndjson'];

  it.each(OWNED)('validate refuses %j at the path, with what to do', (path) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).toThrow(
      /^p\.yaml:7:9: sink\.path: .* (dataset's folder|where the lake keeps its own files).*: give a file in a folder of your own, e\.g\. exports\/\{dataset\}\.ndjson/,
    );
  });

  it('a path ending in / names a folder and is refused (it would become a file of that name)', () => {
    expect(() => parsePipelineYaml(pipelineWithPath('exports/'), { registry: components, file: 'p.yaml' })).toThrow(/p\.yaml:7:9: sink\.path: "exports\/" ends with \/, so names a folder/);
  });

  it.each(['{dataset}.ndjson', 'klines/x.ndjson', 'exports/kline/x.ndjson', 'x_state/y'])('validate accepts %j', (path) => {
    expect(() => parsePipelineYaml(pipelineWithPath(path), { registry: components, file: 'p.yaml' })).not.toThrow();
  });

  it.each(OWNED)('creating the sink refuses %j too, and writes nothing', async (path) => {
    const out = await mkdtemp(join(tmpdir(), 'ql-ndjson-owned-'));
    const config = { ...ndjsonSink.configSchema.parse({}), path };
    expect(() => ndjsonSink.create(config, sinkEnv(out, 'trade'))).toThrow(/lake/);
    expect(await readdir(out)).toEqual([]);
  });
});

describe('hive partition folders from service values', () => {
  const root = '/srv/lake/halt';
  it.each(['..', '.', '../..', '/', '/etc', 'a/../../b', '\0', '%2e%2e', '%2E%2E/x', '..%2f..', 'Ü/..', ' ', '\n'])('value %j becomes one folder inside the dataset', (value) => {
    const segment = partitionSegment('exchange', value);
    expect(segment).not.toContain('/');
    expect(segment).not.toContain('\0');
    expect(segment.slice('exchange='.length)).not.toMatch(/^\.{1,2}$/);
    const full = insideRoot(root, `${segment}/part-0.parquet`);
    expect(full.startsWith(`${root}${sep}exchange=`)).toBe(true);
    expect(full.split(sep)).toHaveLength(root.split(sep).length + 2);
  });

  it('a percent sign is encoded, so %2e%2e never decodes into a way out', () => {
    expect(partitionSegment('exchange', '%2e%2e')).toBe('exchange=%252e%252e');
  });

  it('a value too long for a folder name is refused, not truncated', () => {
    const segment = partitionSegment('exchange', 'X'.repeat(300));
    expect(() => insideRoot(root, `${segment}/part-0.parquet`)).toThrow(PathOutsideRootError);
  });
});

describe('state files named from input', () => {
  it('a pipeline name that is not one safe name is refused', () => {
    for (const name of ['../x', 'a/b', '..', '', 'A', 'x'.repeat(300)]) expect(() => new CheckpointStore('/srv/state', name)).toThrow();
    expect(new CheckpointStore('/srv/state', 'kline-backfill').path).toBe('/srv/state/checkpoints/kline-backfill.json');
  });

  it('the pipeline name is at most 200 characters at validate', () => {
    expect(() => parsePipelineYaml(pipelineWithPath('stdout').replace('name: p', `name: ${'p'.repeat(201)}`), { registry: components, file: 'p.yaml' })).toThrow(
      /p\.yaml:1:7: name: "p{200}…" must be at most 200 characters/,
    );
  });

  it.each(['../../escaped', 'a/b', '../..', `${'r'.repeat(300)}`])('a run manifest for run id %j is refused', async (runId) => {
    const state = await mkdtemp(join(tmpdir(), 'ql-runs-'));
    await expect(writeRunManifest(state, { runId } as RunManifest)).rejects.toBeInstanceOf(PathOutsideRootError);
    expect(await readdir(state)).toEqual([]);
  });
});
