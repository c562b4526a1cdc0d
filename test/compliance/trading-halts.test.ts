/**
 * trading-halts against every behaviour of decisions.md section R, over several seeds, through the
 * real runtime into Parquet, whole-year answers and pages: the stored halts equal those of a run
 * against the plain service at the same instant, each key once, and as many as the service holds.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHaltRows } from '../../src/coverage/index.js';
import type { HaltRow } from '../../src/core/records.js';
import { BEHAVIOURS, duplicates, report, SEEDS, START, startConformance, type Conformance } from './helpers/conformance.js';

const EXCHANGES = ['sse', 'nyse', 'nasdaq'] as const;
const keyOf = (r: HaltRow) => `${r.exchange} ${r.symbol} ${r.halt_at ?? r.halt_local ?? ''}`;
const sorted = (rows: HaltRow[]) => [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));

// Each seed has its own emulator, clock and folder: the seeds run at once (a run waits on the disk and
// its encode workers); within a seed, in order (the first run of a layout is the baseline of the rest).
describe.concurrent.each(SEEDS)('trading-halts conformance, seed %i', (seed) => {
  let c: Conformance;
  const baseline = new Map<string, HaltRow[]>();
  beforeAll(async () => {
    c = await startConformance(seed);
  });
  afterAll(async () => c?.close());

  for (const pageSize of [undefined, 200] as const) {
    const layout = pageSize === undefined ? 'whole year' : `pages of ${pageSize}`;
    const pipeline = (name: string) => ({
      name,
      source: { type: 'trading-halts', exchanges: [...EXCHANGES], ...(pageSize !== undefined ? { pageSize } : {}) },
      transforms: [{ type: 'normalize-halts' }],
      sink: { type: 'parquet' },
    });
    const runOnce = async (behaviour: (typeof BEHAVIOURS)[number] | null, tag: string) => {
      c.clock.set(Date.parse(START));
      const out = join(c.dir, `halts-${tag}-${pageSize ?? 'all'}`);
      const result = await c.run(behaviour, pipeline(`conformance-halts-${tag}`), out);
      return { result, rows: await readHaltRows(out) };
    };

    it.sequential.each(BEHAVIOURS.map((b) => [b.name, b] as const))(`%s (${layout}): every halt once, as the plain service has it`, async (_name, behaviour) => {
      let expected = baseline.get(layout);
      if (!expected) {
        const plain = await runOnce(null, 'plain');
        expected = sorted(plain.rows);
        baseline.set(layout, expected);
        // The plain run holds every distinct record the service has.
        const held = EXCHANGES.reduce((n, x) => n + c.emu.truth.halts(x, Date.parse(START)).length, 0);
        expect(expected.length).toBe(held);
      }
      const { result, rows } = await runOnce(behaviour, behaviour.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
      // A halt is its whole row: two announcements of one halt (same symbol and time) are two records.
      const got = sorted(rows).map((r) => JSON.stringify(r));
      const want = new Set(expected.map((r) => JSON.stringify(r)));
      const have = new Set(got);
      const missing = [...want].filter((r) => !have.has(r)).length;
      const dups = duplicates(got);
      const wrong = got.filter((r) => !want.has(r)).length;
      await report({ source: `trading-halts (${layout})`, behaviour: behaviour.name, seed, missing, duplicates: dups, wrong, status: result.status });
      expect({ missing, dups, wrong, status: result.status, rejected: result.manifest.rejected }).toEqual({ missing: 0, dups: 0, wrong: 0, status: 'succeeded', rejected: 0 });
    });
  }
});
