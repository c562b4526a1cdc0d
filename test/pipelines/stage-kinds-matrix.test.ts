/**
 * Every source × every chain of 0-2 transforms × every sink of the registry: each is either refused
 * by the config check, at the offending stage with a hint that leads to a fitting chain, or it
 * runs on the emulator (frozen clock) to the end. No pipeline may reach an internal error.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components } from '../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import type { Pipeline } from '../../src/config/pipeline-schema.js';
import { run } from '../sources/helpers/run.js';
import { startWorld, type World } from '../sources/helpers/world.js';

const START = '2026-03-04T15:00:00.000Z'; // a Wednesday: US open, Asia closed

/** Small configs, so a run is one or two requests; a source missing here runs its first example. */
const SMALL: Record<string, Record<string, unknown>> = {
  'kline-history': { codes: ['BTCUSDT'], intervals: ['1h'], since: '6h' },
  'kline-latest': { codes: ['BTCUSDT'], intervals: ['1m'] },
  'depth-snapshot': { codes: ['BTCUSDT'] },
  'trade-snapshot': { codes: ['BTCUSDT'] },
  'trading-halts': { exchanges: ['nyse'] },
};

const typesOf = (kind: string) => components.filter((d) => d.kind === kind).map((d) => d.type);
const sources = typesOf('source');
const transforms = typesOf('transform');
const sinks = typesOf('sink');
const chains: string[][] = [[], ...transforms.map((t) => [t]), ...transforms.flatMap((a) => transforms.map((b) => [a, b]))];

function sourceConfig(type: string): Record<string, unknown> {
  const def = components.find((d) => d.kind === 'source' && d.type === type)!;
  return SMALL[type] ?? (def.examples[0] as Record<string, unknown>);
}

/** The YAML text of a pipeline, one key per line, so each stage's line is known. */
function yamlOf(source: string, chain: readonly string[], sink: string): { text: string; lines: Record<string, number> } {
  const out = ['name: matrix', 'source:', `  type: ${source}`];
  for (const [k, v] of Object.entries(sourceConfig(source))) out.push(`  ${k}: ${JSON.stringify(v)}`);
  const lines: Record<string, number> = {};
  out.push(chain.length === 0 ? 'transforms: []' : 'transforms:');
  chain.forEach((t, i) => {
    lines[`transforms[${i}]`] = out.length + 1;
    out.push(`  - type: ${t}`);
  });
  out.push('sink:');
  lines.sink = out.length + 1;
  out.push(`  type: ${sink}`);
  return { text: `${out.join('\n')}\n`, lines };
}

type Outcome = { ok: true; pipeline: Pipeline } | { ok: false; error: PipelineConfigError };

function check(source: string, chain: readonly string[], sink: string): Outcome {
  try {
    return { ok: true, pipeline: parsePipelineYaml(yamlOf(source, chain, sink).text, { registry: components, file: 'matrix.yaml' }) };
  } catch (e) {
    if (e instanceof PipelineConfigError) return { ok: false, error: e };
    throw e;
  }
}

const HINT =
  /^(sink|transforms\[(\d)\]): [a-z-]+ takes [^:]+ but (?:source|transforms\[\d\]) [a-z-]+ emits [^:]+: (?:add ((?:"- type: [a-z-]+"(?: then )?)+) to transforms before (?:the sink|it)|replace it with "- type: ([a-z-]+)"|remove it)$/;

/** The chain the hint asks for. */
function applyHint(chain: readonly string[], message: string): string[] {
  const m = HINT.exec(message);
  if (!m) throw new Error(`no hint in: ${message}`);
  const at = m[1] === 'sink' ? chain.length : Number(m[2]);
  const next = [...chain];
  if (m[3] !== undefined) next.splice(at, 0, ...[...m[3].matchAll(/"- type: ([a-z-]+)"/g)].map((x) => x[1]!));
  else if (m[4] !== undefined) next[at] = m[4];
  else next.splice(at, 1);
  return next;
}

interface Case {
  readonly name: string;
  readonly source: string;
  readonly chain: readonly string[];
  readonly sink: string;
  readonly outcome: Outcome;
}

/** Every combination once (the check is pure and fast), shared by both tests below. */
const cases: Case[] = sources.flatMap((source) =>
  chains.flatMap((chain) =>
    sinks.map((sink) => ({ name: `${source} → [${chain.join(', ')}] → ${sink}`, source, chain, sink, outcome: check(source, chain, sink) })),
  ),
);
const accepted = cases.flatMap((c) => (c.outcome.ok ? [{ name: c.name, pipeline: c.outcome.pipeline }] : []));

describe('stage kinds over the whole registry', () => {
  it('refuses every misfit at its stage with a hint that leads to a fitting chain, and accepts the rest', () => {
    for (const { name, source, chain, sink, outcome } of cases) {
      if (outcome.ok) continue;
      const { problems } = outcome.error;
      expect(problems, name).toHaveLength(1);
      const problem = problems[0]!;
      const stage = problem.message.split(':')[0]!;
      expect(problem.message, name).toMatch(HINT);
      expect({ line: problem.line, column: problem.column }, name).toEqual({
        line: yamlOf(source, chain, sink).lines[stage],
        column: stage === 'sink' ? 3 : 5,
      });
      // Following the hints reaches a chain that fits, in a few steps.
      let fixed = chain;
      let after: Outcome = outcome;
      for (let step = 0; step < 3 && !after.ok; step++) {
        fixed = applyHint(fixed, after.error.problems[0]!.message);
        after = check(source, fixed, sink);
      }
      expect(after.ok, `${name}: hints led to [${fixed.join(', ')}]`).toBe(true);
    }
    // Each source fits exactly one transform (or none for ndjson, which writes raw records as sent).
    expect(accepted.map((a) => a.name).sort()).toEqual(
      sources
        .flatMap((s) => {
          const t = s === 'trading-halts' ? 'normalize-halts' : 'parse-decimals';
          return [`${s} → [] → ndjson`, ...sinks.map((k) => `${s} → [${t}] → ${k}`)];
        })
        .sort(),
    );
  });

  describe('every accepted chain runs on the emulator', () => {
    let world: World;
    beforeAll(async () => {
      world = await startWorld(START);
    });
    afterAll(async () => {
      await world.close();
    });

    it('to the end, writing rows, with no internal error', async () => {
      expect(accepted.length).toBeGreaterThan(0);
      for (const [i, { name, pipeline }] of accepted.entries()) {
        // ndjson writes to stdout by default: read it, or backpressure would stall the run.
        const stdout = new PassThrough().resume();
        const result = await run(pipeline, { client: world.client(), clock: world.clock, outputDir: join(world.dir, `run-${i}`), stdout });
        expect(result.status, name).toBe('succeeded');
        const written = Object.values(result.manifest.rows).reduce((sum, r) => sum + r.written, 0);
        expect(written, name).toBeGreaterThan(0);
      }
    }, 30_000);
  });
});
