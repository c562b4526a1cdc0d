/**
 * The backfill bench's settings (README, "Performance"): a wrong QUOTELAKE_BENCH_* value is refused
 * by `node bench/run.mjs backfill` with exit 2 and one line naming it, before the emulator starts
 * or bench/results/latest.json changes; unset or empty is the default.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the bench, without types
import { backfillSettings } from '../../bench/backfill/settings.mjs';

const RUN = fileURLToPath(new URL('../../bench/run.mjs', import.meta.url));
const LATEST = fileURLToPath(new URL('../../bench/results/latest.json', import.meta.url));
const snapshot = () => (existsSync(LATEST) ? { text: readFileSync(LATEST, 'utf8'), mtimeMs: statSync(LATEST).mtimeMs } : undefined);

describe('backfill bench settings', () => {
  it.each([
    ['QUOTELAKE_BENCH_RUNS', 'abc', 'QUOTELAKE_BENCH_RUNS must be a whole number of runs, 1 or more, got "abc"'],
    ['QUOTELAKE_BENCH_RUNS', '0', 'QUOTELAKE_BENCH_RUNS must be a whole number of runs, 1 or more, got "0"'],
    ['QUOTELAKE_BENCH_BIG', 'false', 'QUOTELAKE_BENCH_BIG must be 0 or 1 (0 skips the long span), got "false"'],
    ['QUOTELAKE_BENCH_KEEP', 'true', 'QUOTELAKE_BENCH_KEEP must be 0 or 1 (1 keeps the scratch folder), got "true"'],
    ['QUOTELAKE_BENCH_BIG_SPAN', '414', 'QUOTELAKE_BENCH_BIG_SPAN must be a span such as 414d, 60w or 9000h, or a date YYYY-MM-DD, got "414"'],
  ])('%s=%s: exit 2 and one line, nothing run, latest.json kept', (name, value, message) => {
    const before = snapshot();
    const r = spawnSync(process.execPath, [RUN, 'backfill'], { encoding: 'utf8', env: { ...process.env, [name]: value }, timeout: 20_000 });
    expect(r.stderr).toBe(`bench: backfill.bench.mjs: ${message}\n`);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(snapshot()).toEqual(before);
  });

  it('unset or empty is the default; 0 and 1 are read as written', () => {
    expect(backfillSettings({})).toEqual({ runs: 3, big: true, bigSpan: '414d', keep: false });
    const empty = { QUOTELAKE_BENCH_RUNS: '', QUOTELAKE_BENCH_BIG: '', QUOTELAKE_BENCH_BIG_SPAN: '', QUOTELAKE_BENCH_KEEP: '' };
    expect(backfillSettings(empty)).toEqual({ runs: 3, big: true, bigSpan: '414d', keep: false });
    const given = { QUOTELAKE_BENCH_RUNS: '5', QUOTELAKE_BENCH_BIG: '0', QUOTELAKE_BENCH_BIG_SPAN: '2025-10-01', QUOTELAKE_BENCH_KEEP: '1' };
    expect(backfillSettings(given)).toEqual({ runs: 5, big: false, bigSpan: '2025-10-01', keep: true });
    expect(backfillSettings({ QUOTELAKE_BENCH_BIG: '1', QUOTELAKE_BENCH_BIG_SPAN: '60w' })).toMatchObject({ big: true, bigSpan: '60w' });
  });
});
