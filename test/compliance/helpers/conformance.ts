/**
 * The conformance harness: the real emulator on a frozen clock with one token per behaviour of
 * decisions.md section R, a real client on the same clock, a pipeline run through the real runtime,
 * and what it stored compared with the emulator's ground truth.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createClient, manualSleep, seededRandom, type ServiceClient } from '../../../src/api/index.js';
import { canonicalDecimal } from '../../../src/core/decimal.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { PipelineInput } from '../../../src/config/pipeline-schema.js';
import type { TokenGrant } from '../../../src/emulator/plans-file.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/server.js';
import { run } from '../../sources/helpers/run.js';
import { realBackends } from '../../sources/helpers/world.js';

/** A Wednesday, frozen: crypto and forex trade, US stocks are open (10:00 New York), Asia closed. */
export const START = '2026-03-04T15:00:00.000Z';

// Two seeds by default keep the suite well within its time on two cores; more for a deeper look (QL_CONFORMANCE_SEEDS=1,2,3,4,5,6,7,8).
export const SEEDS = (process.env.QL_CONFORMANCE_SEEDS ?? '1,2').split(',').map(Number);

/** The transient failures of R3, all at once and often enough to meet every one in a run. */
const TRANSIENT = '5xx=0.04,504=0.03,drop=0.02,truncate=0.02,429=0.04,429-untraced=0.03,halt-busy=0.15,retry-after=0.5';

export interface Behaviour {
  readonly name: string;
  readonly behaviours?: string;
  readonly faults?: string;
}

/** Every behaviour of R1-R7 alone, then all of them together. */
export const BEHAVIOURS: readonly Behaviour[] = [
  { name: 'none' },
  { name: 'R1 short-pages', behaviours: 'short-pages=0.5' },
  { name: 'R1 missing-bars', behaviours: 'missing-bars=0.05' },
  { name: 'R2 descending', behaviours: 'descending' },
  { name: 'R2 shuffle', behaviours: 'shuffle' },
  { name: 'R2 overlap', behaviours: 'overlap' },
  { name: 'R3 transient', faults: TRANSIENT },
  { name: 'R4 number-forms', behaviours: 'number-forms' },
  { name: 'R5 extra-fields', behaviours: 'extra-fields' },
  { name: 'R6 halt-duplicates', behaviours: 'halt-duplicates=0.5' },
  { name: 'R7 omit-codes', behaviours: 'omit-codes=0.2' },
  { name: 'all', behaviours: 'all', faults: TRANSIENT },
];

const tokenOf = (b: Behaviour) => `conf-${b.name.replace(/[^a-z0-9]+/gi, '-')}`;
const PLAIN = 'conf-plain';

export interface Conformance {
  readonly emu: EmulatorHandle;
  /** The emulator's own data sources: what a depth or trade answer at an instant holds. */
  readonly backends: ReturnType<typeof realBackends>;
  readonly clock: ManualClock;
  readonly dir: string;
  /** A client of the behaviour's token (PLAIN for none). */
  client(b: Behaviour | null): ServiceClient;
  tokenOf(b: Behaviour | null): string;
  run(b: Behaviour | null, pipeline: PipelineInput, outputDir: string): ReturnType<typeof run> & Promise<{ stdout: string }>;
  close(): Promise<void>;
}

export async function startConformance(seed: number): Promise<Conformance> {
  const clock = new ManualClock(START);
  const plans: TokenGrant[] = [
    { token: PLAIN, plan: 'professional' },
    ...BEHAVIOURS.map((b) => ({
      token: tokenOf(b),
      plan: 'professional' as const,
      ...(b.behaviours ? { behaviours: b.behaviours } : {}),
      ...(b.faults ? { faults: b.faults } : {}),
    })),
  ];
  const backends = realBackends(seed);
  const emu = await startEmulator({ clock, seed, plans, backends, log: () => {} });
  const dir = await mkdtemp(join(tmpdir(), 'ql-conformance-'));
  const clients: ServiceClient[] = [];
  let n = 0;
  const client = (b: Behaviour | null) => {
    const c = createClient({
      baseUrl: emu.url,
      token: b ? tokenOf(b) : PLAIN,
      plan: 'professional',
      stateDir: join(dir, `state-${n}`),
      // A fixed run id: the traces, and so every seeded draw of the emulator, repeat per seed.
      runId: `conf${seed}x${n++}`,
      clock,
      sleep: manualSleep(clock),
      retry: { random: seededRandom(seed) },
    });
    clients.push(c);
    return c;
  };
  return {
    emu,
    backends,
    clock,
    dir,
    client,
    tokenOf: (b) => (b ? tokenOf(b) : PLAIN),
    run: (async (b: Behaviour | null, pipeline: PipelineInput, outputDir: string) => {
      const stdout = new PassThrough();
      const chunks: Buffer[] = [];
      stdout.on('data', (c: Buffer) => chunks.push(c));
      const result = await run(pipeline, { client: client(b), clock, outputDir, stdout });
      return { ...result, stdout: Buffer.concat(chunks).toString('utf8') };
    }) as Conformance['run'],
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An exact decimal text in canonical form, so "12.50" and "12.5000" compare equal and nothing rounds. */
export function exact(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const value = canonicalDecimal(text);
  return typeof value === 'string' ? value : `not a decimal: ${text}`;
}

/** A stored K-line row's six decimals, exact and canonical, as one comparable text. */
export function rowValues(r: { open: string; high: string; low: string; close: string; volume: string; turnover: string }): string {
  return [r.open, r.high, r.low, r.close, r.volume, r.turnover].map(exact).join(' ');
}

/** The same text of a bar as the service sends it. */
export function wireValues(b: { open_price: string; high_price: string; low_price: string; close_price: string; volume: string; turnover: string }): string {
  return rowValues({ open: b.open_price, high: b.high_price, low: b.low_price, close: b.close_price, volume: b.volume, turnover: b.turnover });
}

/** Keys seen more than once. */
export function duplicates(keys: readonly string[]): number {
  return keys.length - new Set(keys).size;
}

/** One cell of the behaviour x source table. */
export interface Outcome {
  readonly source: string;
  readonly behaviour: string;
  readonly seed: number;
  readonly missing: number;
  readonly duplicates: number;
  readonly wrong: number;
  readonly status: string;
}

/** With QL_CONFORMANCE_REPORT=dir, each outcome is written there (for the table of a closing note). */
export async function report(outcome: Outcome): Promise<void> {
  const dir = process.env.QL_CONFORMANCE_REPORT;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const name = `${outcome.source}-${outcome.behaviour}-${outcome.seed}`.replace(/[^a-z0-9]+/gi, '-');
  await writeFile(join(dir, `${name}.json`), JSON.stringify(outcome));
}
