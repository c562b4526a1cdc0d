import { describe, expect, it } from 'vitest';
import { parsePipelineYaml } from '../../src/config/parse-pipeline.js';
import { registry } from '../../src/cli/registry.js';
import { applyOverrides, resolveRunSettings, sinkWritesStdout } from '../../src/cli/run-settings.js';
import { chooseTarget } from '../../src/cli/service-target.js';
import { UsageError } from '../../src/cli/usage-error.js';

const YAML = `# Test pipeline.
name: t
service:
  baseUrl: http://file.example:8080
  plan: basic
source:
  type: kline-history
  codes: [BTCUSDT]
  intervals: [1m]
  since: 7d
transforms:
  - type: parse-decimals
sink:
  type: parquet
  maxRowsPerFile: 1000
options:
  outputDir: from-file
`;
const pipeline = parsePipelineYaml(YAML, { registry, file: 't.yaml' });

describe('resolveRunSettings: flag > env > file > default', () => {
  it('takes the file when nothing else is given', () => {
    const r = resolveRunSettings(pipeline, {}, {});
    expect(r.settings).toMatchObject({ baseUrl: 'http://file.example:8080', plan: 'basic', outputDir: 'from-file', stateDir: 'from-file/.state', format: 'parquet', since: '7d', codes: ['BTCUSDT'] });
    expect(r.origin).toMatchObject({ baseUrl: 'file', plan: 'file', outputDir: 'file', stateDir: 'default' });
  });

  it('env beats the file and flags beat env', () => {
    const env = { QUOTELAKE_BASE_URL: 'http://env.example', QUOTELAKE_PLAN: 'premium', QUOTELAKE_TOKEN: 'env-token-123456' };
    const byEnv = resolveRunSettings(pipeline, {}, env);
    expect(byEnv.settings).toMatchObject({ baseUrl: 'http://env.example', plan: 'premium', token: 'env-token-123456' });
    const byFlag = resolveRunSettings(pipeline, { 'base-url': 'http://flag.example', plan: 'free', token: 'flag-token-123456', output: 'o' }, env);
    expect(byFlag.settings).toMatchObject({ baseUrl: 'http://flag.example', plan: 'free', token: 'flag-token-123456', outputDir: 'o', stateDir: 'o/.state' });
    expect(byFlag.origin).toMatchObject({ baseUrl: 'flag', plan: 'flag', token: 'flag' });
  });

  it('a wrong plan is a usage error naming the plans', () => {
    expect(() => resolveRunSettings(pipeline, { plan: 'gold' }, {})).toThrow(UsageError);
    expect(() => resolveRunSettings(pipeline, {}, { QUOTELAKE_PLAN: 'gold' })).toThrow(/QUOTELAKE_PLAN: "gold" is not one of free, basic/);
  });
});

describe('applyOverrides', () => {
  it('puts --since, --until and --codes into the source and validates again', () => {
    const resolved = resolveRunSettings(pipeline, { since: '2026-01-01', until: '2026-01-02', codes: 'ETHUSDT, EURUSD' }, {});
    const p = applyOverrides(pipeline, resolved, registry, 't.yaml');
    expect(p.source).toMatchObject({ since: '2026-01-01', until: '2026-01-02', codes: ['ETHUSDT', 'EURUSD'] });
    const bad = resolveRunSettings(pipeline, { codes: 'btcusdt' }, {});
    expect(() => applyOverrides(pipeline, bad, registry, 't.yaml')).toThrow(/t\.yaml with --codes: .*unknown product code "btcusdt"; did you mean "BTCUSDT"/);
  });

  it('--format replaces the sink and keeps the keys the new sink knows', () => {
    const arrow = applyOverrides(pipeline, resolveRunSettings(pipeline, { format: 'arrow' }, {}), registry, 't.yaml');
    expect(arrow.sink).toMatchObject({ type: 'arrow', maxRowsPerFile: 1000 });
    const ndjson = applyOverrides(pipeline, resolveRunSettings(pipeline, { format: 'ndjson' }, {}), registry, 't.yaml');
    expect(ndjson.sink.type).toBe('ndjson');
    expect(ndjson.sink).not.toHaveProperty('maxRowsPerFile');
    expect(sinkWritesStdout(ndjson)).toBe(true);
    expect(sinkWritesStdout(arrow)).toBe(false);
  });

  it('--format arrow or ndjson of a Delta table writes plain files: table: delta stays with the parquet sink', () => {
    const delta = parsePipelineYaml(YAML.replace('  maxRowsPerFile: 1000', '  maxRowsPerFile: 1000\n  table: delta'), { registry, file: 't.yaml' });
    const arrow = applyOverrides(delta, resolveRunSettings(delta, { format: 'arrow' }, {}), registry, 't.yaml');
    expect(arrow.sink).toMatchObject({ type: 'arrow', maxRowsPerFile: 1000 });
    expect(arrow.sink).not.toHaveProperty('table');
    const ndjson = applyOverrides(delta, resolveRunSettings(delta, { format: 'ndjson' }, {}), registry, 't.yaml');
    expect(ndjson.sink).toEqual({ type: 'ndjson', path: 'stdout', chunkBytes: 65_536 });
  });

  it('--format to another sink keeps its checkpoints apart from the pipeline\'s own sink', () => {
    const ndjson = applyOverrides(pipeline, resolveRunSettings(pipeline, { format: 'ndjson' }, {}), registry, 't.yaml');
    expect(ndjson.name).toBe(`${pipeline.name}-ndjson`);
    const same = applyOverrides(pipeline, resolveRunSettings(pipeline, { format: pipeline.sink.type as 'parquet' }, {}), registry, 't.yaml');
    expect(same.name).toBe(pipeline.name);
  });

  it('an override the source does not have is a usage error', () => {
    const trades = parsePipelineYaml('name: x\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n', { registry });
    expect(() => applyOverrides(trades, resolveRunSettings(trades, { until: '1d' }, {}), registry, 'x.yaml')).toThrow(
      '--until does not apply to this pipeline: its source "trade-snapshot" has no "until"',
    );
  });
});

describe('chooseTarget', () => {
  const bare = parsePipelineYaml('name: x\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n', { registry });
  it('no base URL and no token: the embedded emulator with the plan\'s demo token', () => {
    expect(chooseTarget(resolveRunSettings(bare, {}, {}))).toEqual({ kind: 'embedded', token: 'demo-professional', plan: 'professional' });
    expect(chooseTarget(resolveRunSettings(bare, { plan: 'free' }, {}))).toEqual({ kind: 'embedded', token: 'demo-free', plan: 'free' });
  });
  it('a remote service needs a token, a base URL and a plan', () => {
    expect(() => chooseTarget(resolveRunSettings(bare, {}, { QUOTELAKE_BASE_URL: 'http://h' }))).toThrow('a base URL is set (environment: http://h) but no token');
    expect(() => chooseTarget(resolveRunSettings(bare, { token: 'abcdefghijk' }, {}))).toThrow('a token is set but no base URL');
    expect(() => chooseTarget(resolveRunSettings(bare, { token: 'abcdefghijk', 'base-url': 'http://h' }, {}))).toThrow('plan is not set');
    expect(chooseTarget(resolveRunSettings(bare, { token: 'abcdefghijk', 'base-url': 'http://h', plan: 'basic' }, {}))).toEqual({
      kind: 'remote',
      baseUrl: 'http://h',
      token: 'abcdefghijk',
      plan: 'basic',
    });
    expect(() => chooseTarget(resolveRunSettings(bare, { token: 'abcdefghijk', 'base-url': 'ftp://h', plan: 'basic' }, {}))).toThrow('must be http or https');
  });
  it('a base URL with credentials or a query is refused (they would go unsent, yet be printed), and never shown whole', () => {
    const target = (baseUrl: string) => () => chooseTarget(resolveRunSettings(bare, { token: 'abcdefghijk', 'base-url': baseUrl, plan: 'basic' }, {}));
    expect(target('http://me:hunter2pw@h:8080/api')).toThrow('base URL "http://me:***@h:8080/api" holds a user name or password, which quotelake never sends');
    expect(target('http://h/?token=abcdefghijk')).toThrow('base URL "http://h/?token=abcd%E2%80%A6" has a query or fragment, which quotelake never sends');
    expect(target('http://h/#top')).toThrow('has a query or fragment');
    expect(() => chooseTarget(resolveRunSettings(bare, {}, { QUOTELAKE_BASE_URL: 'http://me:hunter2pw@h' }))).toThrow('a base URL is set (environment: http://me:***@h) but no token');
  });
});
