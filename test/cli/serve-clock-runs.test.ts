/**
 * `quotelake serve --clock T --clock-runs`: the emulator's clock starts at T and runs (so rate
 * windows pass for workers paced against it); plain --clock stays frozen; --clock-runs alone is a
 * usage error. Driven by an injected base clock: no test depends on the machine's time.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { resolveServeOptions } from '../../src/cli/commands/serve.js';
import { UsageError } from '../../src/cli/usage-error.js';

const BASE = { host: '127.0.0.1', port: 0, seed: 1, 'quota-time-zone': 'UTC', limits: true };
const T = '2026-11-20T12:00:00Z';

describe('serve --clock-runs', () => {
  it('starts at --clock and moves on with real time; plain --clock is frozen', async () => {
    const running = (await resolveServeOptions({ ...BASE, clock: T, 'clock-runs': true }, {})).clock;
    const frozen = (await resolveServeOptions({ ...BASE, clock: T }, {})).clock;
    expect(frozen).toBeInstanceOf(ManualClock);
    expect(running).not.toBeInstanceOf(ManualClock);
    // Shifted from the real clock: within a few seconds of T now, never before it.
    expect(running.now()).toBeGreaterThanOrEqual(Date.parse(T));
    expect(running.now() - Date.parse(T)).toBeLessThan(60_000);
    expect(frozen.now()).toBe(Date.parse(T));
  });

  it('--clock-runs without --clock is a usage error naming both', async () => {
    await expect(resolveServeOptions({ ...BASE, 'clock-runs': true }, {})).rejects.toThrow(UsageError);
    await expect(resolveServeOptions({ ...BASE, 'clock-runs': true }, {})).rejects.toThrow('--clock-runs needs --clock');
  });
});
