/**
 * The hint of a run's `ret 604` on a pool of market-limited tokens, through the real CLI and its
 * built-in emulator on a frozen clock. A snapshot request carries .HK and .US codes together and
 * no one token covers both: the pool holds a token for each, so the useful advice is a pipeline per
 * market (as `quotelake plan` says), not "a token on a plan that covers them". Codes that no token
 * of the pool covers: add such a token. One token alone keeps its plan's own hint.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-12T15:00:00Z';
const POOL = { QUOTELAKE_TOKENS: 'demo-all-hk:all-hk,demo-all-us:all-us' };

/** A run of one round of order books of `codes`, in a folder of its own. */
function booksRun(codes: string): string[] {
  const dir = tempDir();
  writeFileSync(join(dir, 'books.yaml'), 'name: books\nsource:\n  type: depth-snapshot\n  codes: [AAPL.US]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
  return ['run', join(dir, 'books.yaml'), '--codes', codes, '--output', join(dir, 'out'), '--clock', NOW, '--quiet'];
}

/** The hint line the run printed under its error. */
function hintOf(stderr: string): string {
  return /\n {2}hint: (.*)/.exec(stderr)?.[1] ?? '';
}

describe('a run meeting ret 604 on a pool of all-hk and all-us tokens', () => {
  it('.HK and .US in one snapshot request: the hint says to give each market a pipeline, as plan does', async () => {
    const run = await runCli(booksRun('700.HK,AAPL.US'), { env: POOL });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('ret 604 code unauthorized for AAPL.US');
    expect(hintOf(run.stderr)).toBe(
      "a polling source's request carries the codes of several markets together, and no token of the pool covers them all (all-hk covers only HK stocks (.HK); all-us covers only US stocks (.US)): give each market a pipeline of its own, or add to the pool a token on a plan that covers them all",
    );
    expect(run.stderr).not.toContain('fetch them with a token on a plan that covers them');
  });

  it('a code no token of the pool covers (.SH): the hint says to drop it or add a token that covers it', async () => {
    const run = await runCli(booksRun('700.HK,600000.SH'), { env: POOL });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('ret 604 code unauthorized for 600000.SH');
    expect(hintOf(run.stderr)).toBe(
      'no token of the pool is on a plan that covers them (all-hk covers only HK stocks (.HK); all-us covers only US stocks (.US)): drop those codes from codes, or add to the pool a token on a plan that covers them',
    );
  });

  it('both in one request (.SH none covers, .US another token covers): the hint tells them apart', async () => {
    const run = await runCli(booksRun('700.HK,AAPL.US,600000.SH'), { env: POOL });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('ret 604 code unauthorized for AAPL.US,600000.SH');
    expect(hintOf(run.stderr)).toBe(
      '600000.SH: no token of the pool is on a plan that covers them (all-hk covers only HK stocks (.HK); all-us covers only US stocks (.US)): drop those codes from codes, or add to the pool a token on a plan that covers them; the others mix markets that no one token covers: give each market a pipeline of its own',
    );
  });

  it('one all-hk token: its plan\'s own hint, as before', async () => {
    const run = await runCli(booksRun('700.HK,AAPL.US'), { env: { QUOTELAKE_TOKENS: 'demo-all-hk:all-hk' } });
    expect(run.code, run.stderr).toBe(1);
    expect(hintOf(run.stderr)).toBe('plan all-hk covers only HK stocks (.HK): drop the codes outside it from codes, or fetch them with a token on a plan that covers them');
  });
});
