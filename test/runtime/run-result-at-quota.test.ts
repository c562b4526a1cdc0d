/**
 * A program's run that the daily quota stopped half-way is told so by its result, as the command
 * line says it with exit 75: before, the result was `succeeded` with no shortfall, so README's
 * example (which checks `shortfalls`) reported a third of the window as a whole run. Through the
 * package's entry point, against the emulator on loopback with a plan of 2 requests a day.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { components, createClient, definePipeline, ManualClock, runPipeline, startEmulator, type CustomPlan } from '../../src/index.js';

const twoADay: CustomPlan = { name: 'two-a-day', base: 'professional', perDay: 2 };

async function runOn(plan: CustomPlan | undefined) {
  const clock = new ManualClock('2026-11-20T12:00:00Z');
  const emulator = await startEmulator({ clock, log: () => {}, ...(plan ? { customPlans: [plan] } : {}) });
  const dir = await mkdtemp(join(tmpdir(), 'ql-result-quota-'));
  const client = createClient({
    baseUrl: emulator.url,
    token: plan ? `demo-${plan.name}` : 'demo-professional',
    plan: plan ? plan.name : 'professional',
    ...(plan ? { plans: { file: 'inline', plans: [plan], tokens: undefined } } : {}),
    stateDir: join(dir, '.state'),
    clock,
  });
  // Three series of 3 days of 1h bars: one request each.
  const pipeline = definePipeline({
    name: 'three-series',
    source: { type: 'kline-history', codes: ['BTCUSDT', 'ETHUSDT', 'SHIBUSDT'], intervals: ['1h'], since: '3d' },
    transforms: [{ type: 'parse-decimals' }],
    sink: { type: 'parquet' },
  });
  try {
    return await runPipeline(pipeline, { registry: components, client, outputDir: dir, clock });
  } finally {
    await client.close();
    await emulator.close();
  }
}

describe("a run's result when the daily quota stops it", () => {
  it('says stoppedAtQuota, beside the note of when to run again', async () => {
    const result = await runOn(twoADay);
    expect(result.status).toBe('succeeded');
    expect(result.stoppedAtQuota).toBe(true);
    expect(result.manifest.requests).toEqual({ '/quote-b-api/kline': 2 });
    expect(result.notes).toContain('daily request quota used up; stopped cleanly, run again after 2026-11-21T00:00:00.000Z');
  });

  it('a whole run says false', async () => {
    const result = await runOn(undefined);
    expect(result.stoppedAtQuota).toBe(false);
    expect(result.shortfalls).toBe(0);
    expect(result.manifest.requests).toEqual({ '/quote-b-api/kline': 3 });
  });
});
