/**
 * Through the built CLI against `quotelake serve`, counted by the emulator itself: a backfill from a
 * service whose pages overlap (R2), stopped at the service's daily quota and resumed, costs what an
 * uninterrupted backfill costs. The walk's mark that the service overlaps is kept in the checkpoint,
 * so the resumed walk predicts its pages ahead right from its first page (before: it learned the
 * mark again and paid the pages it had asked for ahead once more, 6 requests here). A checkpoint
 * saved without the mark (an older quotelake) still resumes to the same bars; one with the mark
 * resumed against a service that no longer overlaps drops it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';

const NOW = '2026-11-20T12:00:00Z';
const CUT_AT = 12;
const TOKENS = {
  whole: 'sk-e2e-whole-overlap',
  cut: 'sk-e2e-cut-overlap',
  cutOld: 'sk-e2e-cut-old-overlap',
  cutClean: 'sk-e2e-cut-then-clean',
  resume: 'sk-e2e-resume-overlap',
  resumeOld: 'sk-e2e-resume-old-overlap',
  clean: 'sk-e2e-resume-clean',
};
const token = (name: string, plan: string, overlap: boolean) => `  - token: ${name}\n    plan: ${plan}\n${overlap ? '    behaviours: overlap\n' : ''}`;
// Plans nothing paces (the emulator's frozen clock would otherwise hold its per-second window); the
// tight one stops a run at the service's daily quota.
const PLANS =
  `plans:
  - name: wide
    perSecond: 1000000
    perMinute: 100000000
    perDay: 100000000
  - name: tight
    perSecond: 1000000
    perMinute: 100000000
    perDay: ${CUT_AT}
tokens:
` +
  token(TOKENS.whole, 'wide', true) +
  token(TOKENS.cut, 'tight', true) +
  token(TOKENS.cutOld, 'tight', true) +
  token(TOKENS.cutClean, 'tight', true) +
  token(TOKENS.resume, 'wide', true) +
  token(TOKENS.resumeOld, 'wide', true) +
  token(TOKENS.clean, 'wide', false);

let dir = '';
let serve: CliProcess | undefined;
let url = '';

beforeAll(async () => {
  dir = tempDir('ql-overlap-resume-');
  writeFileSync(join(dir, 'plans.yaml'), PLANS);
  writeFileSync(
    join(dir, 'backfill.yaml'),
    'name: backfill\nsource:\n  type: kline-history\n  codes: [BTCUSDT, EURUSD]\n  intervals: [1m]\n  since: 2026-11-12T00:00:00Z\n  until: 2026-11-19T23:59:00Z\n' +
      'transforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n',
  );
  serve = startCli(['serve', '--port', '0', '--seed', '7', '--clock', NOW, '--plans-file', join(dir, 'plans.yaml')]);
  url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
});

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

/** A run of the backfill into `output` with `tokenName`: its exit code and the requests the emulator counted for the token. */
async function backfill(tokenName: string, output: string): Promise<{ code: number | null; requests: number }> {
  const r = await runCli(['run', join(dir, 'backfill.yaml'), '--base-url', url, '--plans-file', join(dir, 'plans.yaml'), '--plan', 'wide', '--clock', NOW, '--output', output, '--quiet'], {
    env: { QUOTELAKE_TOKEN: tokenName },
  });
  const usage = (await (await fetch(`${url}/_emulator/usage?token=${tokenName}`)).json()) as { usage: { day: { used: number } } };
  return { code: r.code, requests: usage.usage.day.used };
}

const checkpointFile = (output: string) => join(output, '.state', 'checkpoints', 'backfill.json');
type Streams = Record<string, { watermark: number | null; low: number | null; walk?: unknown; overlapping?: boolean }>;
const streamsOf = (output: string) => (JSON.parse(readFileSync(checkpointFile(output), 'utf8')) as { streams: Streams }).streams;

/** What the lake holds per series (rows, first and last bar), as `inspect --json` says. */
async function held(output: string): Promise<unknown> {
  const r = await runCli(['inspect', output, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { datasets: { series: unknown[] }[] }).datasets.flatMap((d) => d.series);
}

describe('a backfill from a service whose pages overlap, stopped at the quota and resumed', () => {
  it('costs the uninterrupted backfill\'s requests, for its bars; without the kept mark it paid more', async () => {
    const wholeOut = tempDir('ql-whole-');
    const whole = await backfill(TOKENS.whole, wholeOut);
    expect(whole.code).toBe(0);
    // The pages of 499 new bars once the overlap is learned, and those that were in flight then.
    expect(whole.requests).toBe(48);

    const out = tempDir('ql-cut-');
    const cut = await backfill(TOKENS.cut, out);
    expect(cut).toEqual({ code: 75, requests: CUT_AT });
    // Both walks are in progress, and each saved what it learned of the service.
    for (const [stream, p] of Object.entries(streamsOf(out))) {
      expect(p.walk, stream).toBeDefined();
      expect(p.overlapping, stream).toBe(true);
    }
    const resumed = await backfill(TOKENS.resume, out);
    expect(resumed.code).toBe(0);
    // Before: 42 (the pages ahead of each series' first resumed page asked for twice).
    expect(cut.requests + resumed.requests).toBe(whole.requests);
    expect(await held(out)).toEqual(await held(wholeOut));
    for (const p of Object.values(streamsOf(out))) expect(p.overlapping).toBe(true);

    // The same stop saved without the mark, as an older quotelake did: it loads, resumes to the
    // same bars, learns the mark again and pays those pages once more.
    const oldOut = tempDir('ql-cut-old-');
    expect((await backfill(TOKENS.cutOld, oldOut)).code).toBe(75);
    const doc = JSON.parse(readFileSync(checkpointFile(oldOut), 'utf8')) as { streams: Streams };
    for (const p of Object.values(doc.streams)) delete p.overlapping;
    writeFileSync(checkpointFile(oldOut), JSON.stringify(doc, null, 2));
    const resumedOld = await backfill(TOKENS.resumeOld, oldOut);
    expect(resumedOld.code).toBe(0);
    expect(resumedOld.requests).toBe(resumed.requests + 6);
    expect(await held(oldOut)).toEqual(await held(wholeOut));
    for (const p of Object.values(streamsOf(oldOut))) expect(p.overlapping).toBe(true);
  }, 180_000);

  it('resumed against a service that no longer overlaps: the same bars, and the mark is dropped', async () => {
    const wholeOut = tempDir('ql-whole-clean-');
    const out = tempDir('ql-cut-clean-');
    expect((await backfill(TOKENS.cutClean, out)).code).toBe(75);
    for (const p of Object.values(streamsOf(out))) expect(p.overlapping).toBe(true);
    expect((await backfill(TOKENS.clean, out)).code).toBe(0);
    expect((await backfill(TOKENS.whole, wholeOut)).code).toBe(0);
    expect(await held(out)).toEqual(await held(wholeOut));
    for (const [stream, p] of Object.entries(streamsOf(out))) {
      expect(p.walk, stream).toBeUndefined();
      expect(p.overlapping, stream).toBeUndefined();
    }
  }, 180_000);
});
