import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ComponentDefinition } from '../../src/core/definition.js';
import { ConfigError } from '../../src/core/errors.js';
import { components } from '../../src/components.js';
import { definePipeline } from '../../src/config/define-pipeline.js';
import { parsePipelineYaml, PipelineConfigError, validatePipeline } from '../../src/config/parse-pipeline.js';
import type { Registry } from '../../src/config/pipeline-schema.js';
import { testRegistry } from '../helpers/test-components.js';

const registry = testRegistry({});
const file = 'pipelines/x.yaml';

function errorOf(text: string): PipelineConfigError {
  try {
    parsePipelineYaml(text, { registry, file });
  } catch (e) {
    expect(e).toBeInstanceOf(PipelineConfigError);
    expect(e).toBeInstanceOf(ConfigError);
    return e as PipelineConfigError;
  }
  throw new Error('expected a config error');
}

/** Every problem's message for `text`, against `reg` (the shipped components unless given). */
function problemsOf(text: string, reg: Registry = components): string[] {
  try {
    parsePipelineYaml(text, { registry: reg, file });
  } catch (e) {
    expect(e).toBeInstanceOf(PipelineConfigError);
    return (e as PipelineConfigError).problems.map((p) => p.message);
  }
  throw new Error('expected a config error');
}

const good = `# Counts rows for the test.
# More words.
name: count-it
source:
  type: counter
  batches: 2
  rowsPerBatch: 3
sink:
  type: memory
`;

describe('parsePipelineYaml', () => {
  it('parses a valid file, applies defaults and takes the description from the first comment line', () => {
    const p = parsePipelineYaml(good, { registry, file });
    expect(p).toEqual({
      name: 'count-it',
      description: 'Counts rows for the test.',
      source: { type: 'counter', batches: 2, rowsPerBatch: 3, streams: 1, intervals: ['1m'], code: 'BTCUSDT' },
      transforms: [],
      sink: { type: 'memory' },
      options: { onReject: 'divert', batchMaxRows: 50_000, batchMaxBytes: 64 * 1024 * 1024, commitEveryBatches: 2000, commitEveryMs: 60_000 },
    });
  });

  it('an empty file, or one of comments only, says so at 1:1 with the way to start one', () => {
    for (const [text, what] of [['', 'it is empty'], ['\n\n', 'it is empty'], ['# a pipeline, some day\n', 'it is empty but for comments']] as const) {
      const error = errorOf(text);
      expect(error.problems).toEqual([{ line: 1, column: 1, message: `the file holds no pipeline (${what}): a pipeline is a mapping with name, source and sink; "quotelake init <name>" writes one to start from` }]);
      expect(error.describeAll()).toMatch(/^pipelines\/x\.yaml:1:1: the file holds no pipeline/);
    }
  });

  it('a byte-order mark is no column: a problem on line 1 is where an editor shows it', () => {
    const text = 'name: Bad\nsource:\n  type: counter\nsink:\n  type: memory\n';
    const at = (t: string) => {
      try {
        parsePipelineYaml(t, { registry, file: 'p.yaml' });
      } catch (e) {
        return (e as Error).message.split(': ')[0];
      }
      return 'no error';
    };
    expect(at(`\uFEFF${text}`)).toBe('p.yaml:1:7');
    expect(at(text)).toBe('p.yaml:1:7');
  });

  it('merge keys take the keys of an anchor, a key beside them winning; a problem in them is at the << line', () => {
    const text = 'name: m\nsource:\n  <<: &common {type: counter, batches: 5, rowsPerBatch: 3}\n  batches: 2\nsink:\n  type: memory\n';
    expect(parsePipelineYaml(text, { registry, file: 'p.yaml' }).source).toMatchObject({ type: 'counter', batches: 2, rowsPerBatch: 3 });
    expect(() => parsePipelineYaml(text.replace('rowsPerBatch: 3', 'rowsPerBatch: x'), { registry, file: 'p.yaml' })).toThrow(/^p\.yaml:3:3: source\.rowsPerBatch: /);
    // Also when << is not the mapping's first key: the problem is at the << line, not the first key's.
    const later = 'name: m\nx-common: &common {rowsPerBatch: x}\nsource:\n  type: counter\n  batches: 2\n  <<: *common\nsink:\n  type: memory\n';
    expect(() => parsePipelineYaml(later, { registry, file: 'p.yaml' })).toThrow(/^p\.yaml:6:3: source\.rowsPerBatch: /);
  });

  it('top-level x- keys hold shared anchors and are no part of the pipeline; other unknown keys are still refused', () => {
    const text = 'name: m\nx-common: &common {type: counter, batches: 5, rowsPerBatch: 3}\nsource:\n  <<: *common\n  batches: 2\nsink:\n  type: memory\n';
    const p = parsePipelineYaml(text, { registry, file: 'p.yaml' });
    expect(p.source).toMatchObject({ type: 'counter', batches: 2, rowsPerBatch: 3 });
    expect(p).not.toHaveProperty('x-common');
    expect(() => parsePipelineYaml(text.replace('x-common', 'common'), { registry, file: 'p.yaml' })).toThrow(/^p\.yaml:2:1: unknown key "common"/);
  });

  it('skips a yaml-language-server directive when finding the description', () => {
    const p = parsePipelineYaml(`# yaml-language-server: $schema=../pipeline.schema.json\n${good}`, { registry, file });
    expect(p.description).toBe('Counts rows for the test.');
  });

  it('an explicit description wins over the comment', () => {
    const p = parsePipelineYaml(good.replace('name: count-it', 'name: count-it\ndescription: Explicit'), { registry, file });
    expect(p.description).toBe('Explicit');
  });

  it('unknown top-level key: points at the key', () => {
    const e = errorOf(`${good}sinkk:\n  type: memory\n`);
    expect(e.message).toBe('pipelines/x.yaml:10:1: unknown key "sinkk"; did you mean "sink"?');
    expect([e.file, e.line, e.column]).toEqual([file, 10, 1]);
    expect(e.code).toBe('QL_CONFIG');
  });

  it('unknown nested key: points at the key inside the component', () => {
    const e = errorOf(good.replace('  rowsPerBatch: 3', '  rowsPerBatch: 3\n  bogus: true'));
    expect(e.message).toBe('pipelines/x.yaml:8:3: source: unknown key "bogus"');
  });

  it('wrong type: names the path, the expected type and the value', () => {
    const e = errorOf(good.replace('batches: 2', 'batches: "two"'));
    expect(e.message).toBe('pipelines/x.yaml:6:12: source.batches: expected a number, got string "two"');
  });

  it('bad enum: lists the allowed values', () => {
    const e = errorOf(`${good}options:\n  onReject: ignore\n`);
    expect(e.message).toBe('pipelines/x.yaml:11:13: options.onReject: "ignore" is not one of fail, drop, divert');
  });

  it('a stage\'s own checks run whatever fails elsewhere: an option out of its enum does not hide an unknown code', () => {
    const text = 'name: x\nsource:\n  type: kline-history\n  codes: [BTCUSDX]\n  intervals: [1m]\ntransforms: [{type: parse-decimals}]\nsink:\n  type: parquet\noptions:\n  onReject: skip\n';
    expect(problemsOf(text)).toEqual([
      'source.codes[0]: unknown product code "BTCUSDX"; did you mean "BTCUSDT"?',
      'options.onReject: "skip" is not one of fail, drop, divert',
    ]);
  });

  it('bad plan in service', () => {
    // A name not built in may be a custom plan of --plans-file or QUOTELAKE_PLANS_FILE: the CLI,
    // which knows the plans file, decides (test/e2e/cli-pipeline-plan-from-env-plans-file.test.ts).
    expect(parsePipelineYaml(`${good}service:\n  plan: gold\n`, { registry, file }).service).toEqual({ plan: 'gold' });
    expect(errorOf(`${good}service:\n  plan: "a b"\n  plansFile: p.yaml\n`).message).toBe(
      'pipelines/x.yaml:11:9: service.plan: "a b" is not a plan name (letters, digits, "-" or "_")',
    );
  });

  it('a custom plan name with the plans file that defines it', () => {
    const p = parsePipelineYaml(`${good}service:\n  plan: enterprise\n  plansFile: ../plans/enterprise.yaml\n`, { registry, file });
    expect(p.service).toEqual({ plan: 'enterprise', plansFile: '../plans/enterprise.yaml' });
  });

  it('unknown component type', () => {
    const e = errorOf(good.replace('type: memory', 'type: parkay'));
    expect(e.message).toBe('pipelines/x.yaml:9:9: sink.type: unknown type "parkay"; expected one of memory');
  });

  it('missing required key points at the enclosing mapping', () => {
    const e = errorOf(good.replace('  rowsPerBatch: 3\n', ''));
    expect(e.message).toBe('pipelines/x.yaml:5:3: source.rowsPerBatch: is required');
  });

  it('lint hook: a cross-field problem at the exact list item', () => {
    const e = errorOf(good.replace('  rowsPerBatch: 3', '  rowsPerBatch: 3\n  code: AAPL.US\n  intervals: [1m, 2h]'));
    expect(e.message).toBe('pipelines/x.yaml:9:19: source.intervals[1]: "2h" is not supported for stock code AAPL.US');
  });

  it('bad name', () => {
    const e = errorOf(good.replace('name: count-it', 'name: Count_It'));
    expect(e.message).toBe('pipelines/x.yaml:3:7: name: "Count_It" must match [a-z0-9-]+');
  });

  it('YAML syntax error: uses the parser position', () => {
    const e = errorOf('name: x\nsource: [1, 2\nsink: {}\n');
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^pipelines\/x\.yaml:3:\d+: YAML syntax error: /);
    expect(e.message).not.toMatch(/at line/);
  });

  it('duplicate key is a syntax error that names the key and its first line', () => {
    const e = errorOf(`${good}name: again\n`);
    expect(e.message).toBe('pipelines/x.yaml:10:1: YAML syntax error: key "name" is written twice in this mapping (first at line 3): keep one');
  });

  it('a second YAML document is a problem in words, not the yaml library API', () => {
    const e = errorOf(`${good}---\nname: other\n`);
    expect(e.message).toBe(
      'pipelines/x.yaml:10:1: YAML syntax error: a second YAML document starts here (after a "---" line): a pipeline file holds one; put each pipeline in a file of its own',
    );
  });

  it('aliases that expand exponentially are a problem at the first alias, not an internal error', () => {
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 8; i++) levels.push(`l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`);
    const e = errorOf(`${good}${levels.join('\n')}\n`);
    expect(e.problems).toEqual([
      { line: 11, column: 10, message: 'its aliases (*name) expand to more than 100 copies of anchored values: write the values out, or anchor less deeply nested ones' },
    ]);
  });

  it('an alias without anchor is a problem at the alias, not an internal error', () => {
    const e = errorOf(good.replace('batches: 2', 'batches: *undefined'));
    expect(e.problems).toEqual([{ line: 6, column: 12, message: 'source.batches: alias *undefined names no anchor: mark the value to reuse with &undefined above it, or correct the name' }]);
    expect(e.message).toMatch(/^pipelines\/x\.yaml:6:12: /);
  });

  it("an alias without anchor hides none of the file's other problems: each is said once, in file order", () => {
    const text = good.replace('batches: 2', 'batches: *missing').replace('rowsPerBatch: 3', 'rowsPerBatch: -1');
    const e = errorOf(`${text}extra: 1\n`);
    expect(e.problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [6, 12, 'source.batches: alias *missing names no anchor: mark the value to reuse with &missing above it, or correct the name'],
      [7, 17, 'source.rowsPerBatch: -1 must be greater than 0'],
      [10, 1, 'unknown key "extra"'],
    ]);
    // A whole file that is one alias: the alias alone.
    expect(errorOf('*nothing\n').problems.map((p) => p.message)).toEqual(['alias *nothing names no anchor: mark the value to reuse with &nothing above it, or correct the name']);
  });

  it('an alias above its anchor says where the anchor is', () => {
    const e = errorOf(good.replace('batches: 2', 'batches: *n').replace('rowsPerBatch: 3', 'rowsPerBatch: &n 3'));
    expect(e.problems).toEqual([
      { line: 6, column: 12, message: 'source.batches: alias *n comes before its anchor &n (line 7): YAML reads the anchor first; move the anchored value above this alias' },
    ]);
  });

  it('a merge key of an unknown alias, or of no mapping, is a problem at its value', () => {
    expect(errorOf(good.replace('  type: counter', '  <<: *nope\n  type: counter')).problems).toEqual([
      { line: 5, column: 7, message: 'source: alias *nope names no anchor: mark the value to reuse with &nope above it, or correct the name' },
    ]);
    expect(errorOf(good.replace('  type: counter', '  <<: notamap\n  type: counter')).problems).toEqual([
      { line: 5, column: 7, message: 'source: the merge key "<<" takes a mapping, an alias of one (*name) or a list of them, but this is the scalar "notamap": merge a mapping, or write the keys out' },
    ]);
    // A quoted "<<" is an ordinary key: no merge problem, but a key the source does not take, said with the alias beside it.
    expect(errorOf(good.replace('  type: counter', '  "<<": notamap\n  type: counter\n  code: *nope')).problems.map((p) => p.message)).toEqual([
      'source: unknown key "<<"',
      'source.code: alias *nope names no anchor: mark the value to reuse with &nope above it, or correct the name',
    ]);
    const list = `x: &list [1, 2]\n${good.replace('  type: counter', '  <<: [*list, {batches: 4}]\n  type: counter')}`;
    expect(errorOf(list).problems).toEqual([
      { line: 6, column: 8, message: 'source: the merge key "<<" takes a mapping, an alias of one (*name) or a list of them, but *list is a list: merge a mapping, or write the keys out' },
    ]);
  });

  it('a control character in options.outputDir, options.stateDir or sink.output is a problem at its value', () => {
    const text = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n  output: "a\\tb"\noptions:\n  outputDir: "a\\tb"\n  stateDir: "st\\nx"\n';
    expect(problemsOf(text)).toEqual([
      'sink.output: "a\\tb" contains a control character (U+0009, a tab)',
      'options.outputDir: "a\\tb" contains a control character (U+0009, a tab)',
      'options.stateDir: "st\\nx" contains a control character (U+000A, a line break)',
    ]);
    expect(problemsOf(text.replace('  output: "a\\tb"\n', '').replace('"a\\tb"', '"out\\0x"').replace('  stateDir: "st\\nx"\n', ''))).toEqual([
      'options.outputDir: "out\\u0000x" contains a control character (U+0000, NUL)',
    ]);
  });

  it('a whole number past every bound (concurrency: 99999999999999999999) is one problem, at its value, with the bound that matters', () => {
    const text = (value: string) => `name: t\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1d]\n  since: 3d\n  concurrency: ${value}\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`;
    const problems = (value: string) => {
      try {
        parsePipelineYaml(text(value), { registry: components, file });
      } catch (e) {
        return (e as PipelineConfigError).problems;
      }
      return [];
    };
    // zod's whole numbers also stop at 2^53 - 1: a second message for the same mistake.
    expect(problems('99999999999999999999')).toEqual([{ line: 7, column: 16, message: 'source.concurrency: 100000000000000000000 must be at most 64' }]);
    expect(problems('9007199254740993')).toEqual([{ line: 7, column: 16, message: 'source.concurrency: 9007199254740992 must be at most 64' }]);
    expect(problems('-99999999999999999999')).toEqual([{ line: 7, column: 16, message: 'source.concurrency: -100000000000000000000 must be at least 1' }]);
    expect(problems('1e9')).toEqual([{ line: 7, column: 16, message: 'source.concurrency: 1000000000 must be at most 64' }]);
  });

  it('sink.encodeWorkers has a ceiling of 64', () => {
    const text = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n  encodeWorkersAfterRows: 0\n  encodeWorkers: 9007199254740991\n';
    expect(problemsOf(text)).toEqual(['sink.encodeWorkers: 9007199254740991 must be at most 64']);
    expect(parsePipelineYaml(text.replace('9007199254740991', '64'), { registry: components, file }).sink).toMatchObject({ encodeWorkers: 64 });
  });

  it('a code in codesOutsideCatalog but not in codes is a problem at that entry', () => {
    const text = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT, NOSUCH]\n  codesOutsideCatalog: [NOSUCH, NOPE1]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';
    expect(() => parsePipelineYaml(text, { registry: components, file })).toThrow(
      'pipelines/x.yaml:5:33: source.codesOutsideCatalog[1]: "NOPE1" is in codesOutsideCatalog but not in codes: add it to codes (or remove it here)',
    );
  });

  it('prints the first 50 problems of a file, then how many more there are', () => {
    const many = new PipelineConfigError('p.yaml', Array.from({ length: 53 }, (_, i) => ({ message: `problem ${i}`, line: i + 1, column: 3 })));
    const lines = many.describeAll().split('\n');
    expect(lines).toHaveLength(51);
    expect(lines[0]).toBe('p.yaml:1:3: problem 0');
    expect(lines[49]).toBe('p.yaml:50:3: problem 49');
    expect(lines[50]).toBe('… and 3 more problems in p.yaml');
    expect(many.problems).toHaveLength(53);
    expect(many.shownMessages().slice(-2)).toEqual(['problem 49', '… and 3 more problems in p.yaml']);
    const one = new PipelineConfigError(undefined, Array.from({ length: 51 }, (_, i) => ({ message: `problem ${i}` })));
    expect(one.describeAll().split('\n').at(-1)).toBe('… and 1 more problem in the pipeline');
    const fifty = new PipelineConfigError('p.yaml', Array.from({ length: 50 }, (_, i) => ({ message: `problem ${i}` })));
    expect(fifty.describeAll().split('\n')).toHaveLength(50);
  });

  it('a few aliases are fine: an anchored value used again', () => {
    const p = parsePipelineYaml(good.replace('batches: 2', 'batches: &n 3').replace('rowsPerBatch: 3', 'rowsPerBatch: *n'), { registry, file });
    expect(p.source).toMatchObject({ batches: 3, rowsPerBatch: 3 });
  });

  it('YAML 1.1 tags (!!timestamp, !!binary) keep the text they wrap', () => {
    const e = errorOf(good.replace('name: count-it', 'name: !!binary aGVsbG8='));
    expect(e.message).toBe('pipelines/x.yaml:3:16: name: "aGVsbG8=" must match [a-z0-9-]+');
  });

  it('a %YAML 1.1 file is read with the YAML 1.2 core schema: dates and !!timestamp stay text', () => {
    const text = '%YAML 1.1\n---\nname: t\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  since: 2026-11-27\n  until: !!timestamp 2026-11-28T00:00:00Z\ntransforms:\n  - type: parse-decimals\nsink:\n  type: ndjson\n  keepState: on\n';
    // `on` is a boolean in YAML 1.1 only: under the core schema it is the text "on".
    expect(problemsOf(text)).toEqual(['sink.keepState: expected a boolean, got string "on": write true or false, unquoted (yes, no, on and off are text in YAML 1.2)']);
    const p = parsePipelineYaml(text.replace('  keepState: on\n', ''), { registry: components, file });
    expect(p.source).toMatchObject({ since: '2026-11-27', until: '2026-11-28T00:00:00Z' });
  });

  it('a scalar YAML typed other than meant comes with what to write: quotes for a numeric code, none for a quoted number', () => {
    const text = 'name: t\nsource:\n  type: kline-history\n  codes: [700, 600000.SH, true]\n  intervals: [1m]\n  concurrency: "4"\ntransforms:\n  - type: parse-decimals\nsink:\n  type: ndjson\n  keepState: yes\n';
    expect(problemsOf(text)).toEqual([
      'source.codes[0]: expected a string, got number 700: put it in quotes to make it text',
      'source.codes[2]: expected a string, got boolean true: put it in quotes to make it text',
      'source.concurrency: expected a number, got string "4": write the number without quotes',
      'sink.keepState: expected a boolean, got string "yes": write true or false, unquoted (yes, no, on and off are text in YAML 1.2)',
    ]);
    // Text that is no number gets no such advice.
    expect(problemsOf(text.replace('"4"', '"four"'))).toContain('source.concurrency: expected a number, got string "four"');
  });

  it('a stage written as its bare type, a mapping for a list, or a key left empty, comes with what to write', () => {
    const head = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\n';
    expect(problemsOf(`${head}transforms:\n  - parse-decimals\nsink: parquet\n`)).toEqual([
      'transforms[0]: expected a mapping, got string "parse-decimals": a stage is a mapping with its type, { type: parse-decimals }',
      'sink: expected a mapping, got string "parquet": a stage is a mapping with its type, { type: parquet }',
    ]);
    expect(problemsOf(`${head}transforms:\n  type: parse-decimals\nsink:\n  type: parquet\n`)).toEqual(['transforms: expected a list, got a mapping: make it a list ("- " before its first key)']);
    expect(problemsOf(`${head}transforms:\nsink:\n  type: ndjson\n`)).toEqual(['transforms: expected a list, got null: give it a value, or remove the key']);
  });

  it('a Date given in TypeScript is said to be one, with the text to give instead', () => {
    const input = { name: 't', source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1m'], since: new Date(Date.UTC(2026, 10, 27)) }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } };
    expect(() => validatePipeline(input, { registry: components })).toThrow('source.since: expected a string, got a date: give it as text, such as "2026-11-27T00:00:00.000Z" (toISOString())');
  });

  it('an exclusive bound is said as one: 0 is not "at least 0"', () => {
    const e = errorOf(`${good}options:\n  batchMaxRows: 0\n`);
    expect(e.problems.map((p) => p.message)).toEqual(['options.batchMaxRows: 0 must be greater than 0']);
  });

  it('a stage that names its type under another key is told which key', () => {
    const problems = problemsOf('name: t\nsource:\n  kind: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    expect(problems).toEqual([
      'source.type: a type is required (write "kind: kline-history" as "type: kline-history"); expected one of kline-history, kline-latest, depth-snapshot, trade-snapshot, trading-halts',
    ]);
  });

  it('a refinement of a mapping names the values, not "a mapping"', () => {
    const problems = problemsOf('name: t\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\n    decimal: {precision: 10, scale: 12}\nsink:\n  type: parquet\n');
    expect(problems).toEqual(['transforms[0].decimal: scale 12 must not exceed precision 10']);
  });

  it('says in words a list too short and a number YAML read as infinite', () => {
    const problems = problemsOf('name: t\nsource:\n  type: kline-history\n  codes: []\n  intervals: [1m]\n  concurrency: .inf\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    expect(problems).toEqual(['source.codes: a list of 0 items: must have at least 1 item', 'source.concurrency: expected a finite number, got Infinity']);
  });

  it("a lint that trips over a key its own schema refused leaves that key's problem; on a valid stage it is a bug", () => {
    // A key whose check does not abort the parse, read by a lint written for valid keys.
    const picky = {
      ...testRegistry({}).find((d) => d.kind === 'source')!,
      type: 'picky',
      configSchema: z.object({ when: z.string().refine((v) => v !== 'never', { message: 'must be a day that exists' }), crash: z.boolean().default(false) }),
      lint: (c: { when: string; crash: boolean }) => {
        if (c.when === 'never' || c.crash) throw new RangeError(`not a time: ${c.when}`);
        return [];
      },
    } as ComponentDefinition;
    const withPicky = [...testRegistry({}), picky];
    const yaml = (extra: string) => `name: p\nsource:\n  type: picky\n  when: ${extra}\nsink:\n  type: memory\n`;
    const problems = problemsOf(yaml('never'), withPicky);
    expect(problems).toEqual(['source.when: "never" must be a day that exists']);
    expect(() => parsePipelineYaml(yaml('monday\n  crash: true'), { registry: withPicky, file })).toThrow(RangeError);
  });

  it('an output or state dir written as a URL of another scheme than s3:// is a problem at its line', () => {
    const e = errorOf(`${good}options:\n  outputDir: gs://bucket/lake\n  stateDir: S3://bucket/state\n`);
    expect(e.problems.map((p) => [p.line, p.message])).toEqual([
      [11, 'options.outputDir: "gs://bucket/lake" is neither a folder nor s3://bucket/prefix (any S3-compatible store, with --s3-endpoint)'],
      [12, 'options.stateDir: "S3://bucket/state" has its scheme in capitals: write s3://'],
    ]);
  });

  it('reports every problem, first in file order', () => {
    const e = errorOf(`${good.replace('batches: 2', 'batches: -1')}extra: 1\n`);
    expect(e.problems.map((p) => [p.line, p.message])).toEqual([
      [6, 'source.batches: -1 must be at least 0'],
      [10, 'unknown key "extra"'],
    ]);
    expect(e.describeAll().split('\n')).toHaveLength(2);
  });
});

describe('definePipeline', () => {
  it('types a TS pipeline and validates it with the same schema', () => {
    const p = definePipeline({
      name: 'ts-pipeline',
      source: { type: 'counter', batches: 1, rowsPerBatch: 1 },
      sink: { type: 'memory' },
      options: { onReject: 'drop' },
    });
    const v = validatePipeline(p, { registry });
    expect(v.options.onReject).toBe('drop');
    expect(v.options.batchMaxRows).toBe(50_000);
    expect(v.source).toMatchObject({ type: 'counter', streams: 1 });
  });

  it('errors in a TS pipeline carry the path (no line)', () => {
    const p = definePipeline({
      name: 'ts-pipeline',
      source: { type: 'counter', batches: 1, rowsPerBatch: 1, nope: 1 },
      sink: { type: 'memory' },
    });
    expect(() => validatePipeline(p, { registry, file: 'pipelines/p.ts' })).toThrow('pipelines/p.ts: source: unknown key "nope"');
  });
});

describe('with the real transforms and sinks', () => {
  it('validates their configs with positions, and fills their defaults', async () => {
    const { components } = await import('../../src/components.js');
    const real = components;
    const text = 'name: real\nsource: { type: kline-history, codes: [BTCUSDT], intervals: [1m] }\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n  rowGroupRows: 10\n  colour: red\n';
    let error: PipelineConfigError | undefined;
    try {
      parsePipelineYaml(text, { registry: real, file });
    } catch (e) {
      error = e as PipelineConfigError;
    }
    expect(error?.problems.map((p) => `${p.line}:${p.column}: ${p.message}`)).toEqual([
      '7:17: sink.rowGroupRows: 10 must be at least 1024',
      '8:3: sink: unknown key "colour"',
    ]);
    const ok = parsePipelineYaml(text.replace('  rowGroupRows: 10\n  colour: red\n', ''), { registry: real, file });
    expect(ok.sink).toMatchObject({ type: 'parquet', rowGroupRows: 131_072 });
    expect(ok.transforms[0]?.type).toBe('parse-decimals');
  });
});
