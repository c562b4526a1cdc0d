/**
 * A stock's bars lost for good (more than 500 formed since the last run) are a shortfall: the run
 * says it and exits 4, and its checkpoint moves past them, so no later run asks again. A run
 * killed (or stopped by a signal) after committing that checkpoint never made it its exit code;
 * before, the next run exited 0 and the hole was never said again. The next run now says it
 * (naming the run that met it) and exits 4, once. Through the built CLI against `quotelake serve`;
 * the kill is built directly: a SIGKILL after the commit leaves the run record as it was written
 * at that commit, `running`, as a signal leaves it `aborted`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';

const BEFORE = '2026-11-18T18:00:05Z';
const AFTER = '2026-11-20T18:00:05Z';
const LOST =
  'kline SPX.US 1m: 781 bars formed since the last run but the service gives stocks and indexes only their newest 500; the 281 after 2026-11-18T17:59:00Z (the newest held) and before 2026-11-19T16:11:00Z cannot be fetched';

let serve: CliProcess | undefined;
let url = '';

beforeAll(async () => {
  serve = startCli(['serve', '--port', '0', '--clock', BEFORE, '--no-limits']);
  url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
});

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

async function setClock(iso: string): Promise<void> {
  const r = await fetch(`${url}/_emulator/clock`, { method: 'POST', body: JSON.stringify({ set: iso }) });
  expect(r.status).toBe(200);
}

type Doc = { exitCode: number; runs: { runId: string; notes: string[] }[] };

/** One output: a run before the gap, then one after it (exit 4, the lost bars said); returns how to run it again. */
async function lostSpan(): Promise<{ again: () => Promise<{ code: number | null; doc: Doc; stderr: string }>; runsDir: string; lostRun: string }> {
  const dir = tempDir('ql-lost-');
  const file = join(dir, 'p.yaml');
  writeFileSync(file, 'name: p\nsource:\n  type: kline-history\n  codes: [SPX.US]\n  intervals: [1m]\n  since: 2026-11-18T15:00:00Z\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
  const run = async (clock: string) => {
    const r = await runCli(['run', file, '--base-url', url, '--plan', 'professional', '--output', join(dir, 'out'), '--clock', clock, '--json', '--quiet'], {
      env: { QUOTELAKE_TOKEN: 'demo-professional' },
    });
    return { code: r.code, doc: JSON.parse(r.stdout) as Doc, stderr: r.stderr };
  };
  await setClock(BEFORE);
  expect((await run(BEFORE)).code).toBe(0);
  await setClock(AFTER);
  const lost = await run(AFTER);
  expect(lost.code, lost.stderr).toBe(4);
  expect(lost.doc.runs[0]!.notes.some((n) => n.startsWith(LOST))).toBe(true);
  return { again: () => run(AFTER), runsDir: join(dir, 'out/.state/runs'), lostRun: lost.doc.runs[0]!.runId };
}

/** The run record as a run ended some other way would have left it. */
function endedAs(runsDir: string, runId: string, status: string): void {
  const path = join(runsDir, `${runId}.json`);
  const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...record, status, finishedAt: status === 'running' ? undefined : record.finishedAt }));
}

describe('a shortfall committed by a run that did not finish', () => {
  it.each([
    ['killed after the commit (record left running)', 'running'],
    ['stopped by a signal after the commit (exit 130)', 'aborted'],
  ])('%s: the next run says it, naming that run, and exits 4; the run after exits 0', async (_, status) => {
    const { again, runsDir, lostRun } = await lostSpan();
    endedAs(runsDir, lostRun, status);
    const next = await again();
    expect(next.code, next.stderr).toBe(4);
    expect(next.doc.exitCode).toBe(4);
    const said = next.doc.runs[0]!.notes.filter((n) => n.startsWith(LOST));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`(said by run ${lostRun}, which did not finish after committing it; no later run fetches these bars)`);
    expect(next.stderr).toMatch(/WARN: kline SPX\.US 1m: 781 bars formed since the last run.*said by run/);
    const old = JSON.parse(readFileSync(join(runsDir, `${lostRun}.json`), 'utf8')) as { shortfallsCommitted?: unknown; shortfallsCarriedBy?: string };
    expect(old.shortfallsCommitted).toEqual([{ stream: 'kline/SPX.US/1m', message: expect.stringContaining(LOST), runId: lostRun }]);
    expect(old.shortfallsCarriedBy).toBe(next.doc.runs[0]!.runId);
    const after = await again();
    expect(after.code, after.stderr).toBe(0);
    expect(after.doc.runs[0]!.notes.join('\n')).not.toContain('781 bars');
  });

  it('a run that finished said it in its own exit code: the next run does not say it again', async () => {
    const { again, runsDir } = await lostSpan();
    const next = await again();
    expect(next.code, next.stderr).toBe(0);
    expect(next.doc.runs[0]!.notes.join('\n')).not.toContain('781 bars');
    expect(readdirSync(runsDir)).toHaveLength(3);
  });

  it('a run stopped at the daily quota (exit 75 outranks 4): the run that resumes it says it and exits 4', async () => {
    const dir = tempDir('ql-lost-quota-');
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'name: p\nsource:\n  type: kline-history\n  codes: [SPX.US, BTCUSDT]\n  intervals: [1m]\n  since: 2026-11-18T15:00:00Z\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    // The client keeps the daily cap itself: a plan of 5 requests a day stops the second run there.
    const plans = join(dir, 'plans.yaml');
    writeFileSync(plans, 'plans:\n  - name: five-a-day\n    perDay: 5\n');
    const run = async (clock: string, plan: string) => {
      const r = await runCli(['run', file, '--base-url', url, '--plans-file', plans, '--plan', plan, '--output', join(dir, 'out'), '--clock', clock, '--json', '--quiet'], {
        env: { QUOTELAKE_TOKEN: 'demo-professional' },
      });
      return { code: r.code, doc: JSON.parse(r.stdout) as Doc, stderr: r.stderr };
    };
    await setClock(BEFORE);
    expect((await run(BEFORE, 'professional')).code).toBe(0);
    await setClock(AFTER);
    const stopped = await run(AFTER, 'five-a-day');
    expect(stopped.code, stopped.stderr).toBe(75);
    expect(stopped.doc.runs[0]!.notes.some((n) => n.startsWith(LOST))).toBe(true);
    const resumed = await run(AFTER, 'professional');
    expect(resumed.code, resumed.stderr).toBe(4);
    expect(resumed.doc.runs[0]!.notes.filter((n) => n.startsWith(LOST))).toEqual([expect.stringContaining(`(said by run ${stopped.doc.runs[0]!.runId}, which did not finish`)]);
  });

  it('a newest page left short that the next run asks for again is not handed on: that run meets or mends it itself', async () => {
    const short = startCli(['serve', '--port', '0', '--clock', AFTER, '--no-limits', '--behaviours', 'short-pages=1']);
    try {
      const shortUrl = (await short.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
      const dir = tempDir('ql-short-page-');
      const file = join(dir, 'p.yaml');
      writeFileSync(file, 'name: p\nsource:\n  type: kline-history\n  codes: [SPX.US]\n  intervals: [1m]\n  since: 2026-11-01\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
      const run = async (base: string) => {
        const r = await runCli(['run', file, '--base-url', base, '--plan', 'professional', '--output', join(dir, 'out'), '--clock', AFTER, '--json', '--quiet'], {
          env: { QUOTELAKE_TOKEN: 'demo-professional' },
        });
        return { code: r.code, doc: JSON.parse(r.stdout) as Doc, stderr: r.stderr };
      };
      const first = await run(shortUrl);
      expect(first.code, first.stderr).toBe(4);
      expect(first.doc.runs[0]!.notes.join('\n')).toContain('kline SPX.US 1m: the service gave');
      endedAs(join(dir, 'out/.state/runs'), first.doc.runs[0]!.runId, 'running');
      // The next run asks for the newest 500 bars again (they reach below the bars held) and gets them all.
      await setClock(AFTER);
      const next = await run(url);
      expect(next.code, next.stderr).toBe(0);
      expect(next.doc.runs[0]!.notes.join('\n')).not.toContain('the service gave');
    } finally {
      short.child.kill('SIGTERM');
      await short.result;
    }
  });
});
