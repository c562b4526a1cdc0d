/**
 * A stock's `until` older than the newest 500 bars the service gives: no run can ever fetch the
 * window. The run and `plan` say so, in those words; before, the run said the history "starts at"
 * a bar after until "and builds up across scheduled runs" and blamed the service ("is the code
 * served, is the service up to date?"), and plan promised the same build-up. Through the built CLI
 * against `quotelake serve`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempDir, type CliProcess } from './helpers/cli.js';

const NOW = '2026-11-19T03:00:10Z';
const UNTIL_NOTE = 'kline AAPL.US 1m: until 2026-11-10T00:00:00Z is older than the newest 500 bars the service gives stocks and indexes (from 2026-11-17T19:10:00Z on)';

let serve: CliProcess | undefined;
let url = '';

beforeAll(async () => {
  serve = startCli(['serve', '--port', '0', '--clock', NOW, '--no-limits']);
  url = (await serve.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
});

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.result;
});

function pipelineFile(until = '2026-11-10'): string {
  const dir = tempDir('ql-until-');
  const file = join(dir, 'p.yaml');
  writeFileSync(
    file,
    `name: p\nsource:\n  type: kline-history\n  codes: [AAPL.US]\n  intervals: [1m]\n  since: 2026-11-05\n  until: ${until}\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n`,
  );
  return file;
}

describe('kline-history: a stock window older than the newest 500 bars', () => {
  it('run: one note and warn line that say so, nothing about building up or the service being behind', async () => {
    const file = pipelineFile();
    const args = ['--base-url', url, '--plan', 'professional', '--output', join(file, '..', 'out'), '--clock', NOW];
    const r = await runCli(['run', file, ...args, '--json'], { env: { QUOTELAKE_TOKEN: 'demo-professional' } });
    expect(r.code, r.stderr).toBe(0);
    const notes = (JSON.parse(r.stdout) as { runs: { notes: string[] }[] }).runs[0]!.notes;
    expect(notes).toEqual([`${UNTIL_NOTE}: the bars of 2026-11-05T00:00:00Z .. 2026-11-10T00:00:00Z cannot be fetched, by this run or a later one; nothing stored`]);
    expect(r.stderr).toContain('WARN: kline AAPL.US 1m: until is older than the newest 500 bars the service gives stocks and indexes');
    expect(r.stderr).not.toContain('builds up');
  });

  it('plan: the same words, and no bar counted', async () => {
    const file = pipelineFile();
    const r = await runCli(['plan', file, '--base-url', url, '--plan', 'professional', '--output', join(file, '..', 'out'), '--clock', NOW, '--json'], {
      env: { QUOTELAKE_TOKEN: 'demo-professional' },
    });
    expect(r.code, r.stderr).toBe(0);
    const plan = (JSON.parse(r.stdout) as { plans: { plan: { notes: string[]; streams: { records: number }[] } }[] }).plans[0]!.plan;
    expect(plan.notes).toEqual([`${UNTIL_NOTE}: the bars of 2026-11-05T00:00:00Z .. 2026-11-10T00:00:00Z cannot be fetched; the run stores none`]);
    expect(plan.streams[0]!.records).toBe(0);
  });

  it('a window held up to until: the next run sends no request and says it is up to date', async () => {
    const file = pipelineFile('2026-11-18T15:00:00Z');
    const args = ['run', file, '--base-url', url, '--plan', 'professional', '--output', join(file, '..', 'out'), '--clock', NOW, '--json'];
    const env = { env: { QUOTELAKE_TOKEN: 'demo-professional' } };
    type Doc = { runs: { requestsTotal: number; notes: string[] }[] };
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as Doc).runs[0]!.requestsTotal).toBe(1);
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    const again = (JSON.parse(second.stdout) as Doc).runs[0]!;
    expect(again.requestsTotal).toBe(0);
    expect(again.notes).toEqual(['nothing new since the last checkpoint: every series is up to date; no request was sent']);
    const plan = await runCli(['plan', ...args.slice(1)], env);
    const planned = (JSON.parse(plan.stdout) as { plans: { plan: { totalRequests: number; notes: string[] } }[] }).plans[0]!.plan;
    expect(planned.totalRequests).toBe(0);
    expect(planned.notes.join('\n')).not.toContain('older than');
  });
});
