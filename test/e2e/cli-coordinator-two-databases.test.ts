/**
 * Two processes on one token whose coordinators are one Redis but two databases (`/0` and `/1`):
 * each database counts a plan of its own, so together they exceed it and the service answers 429.
 * The run's note then says what a coordinated user needs to hear: the other process does not share
 * this coordinator, and the database is part of it; not only "another process is using the token".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shiftedClock } from '../../src/core/clock.js';
import { startEmulator } from '../../src/emulator/index.js';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { startCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'demo-professional';

describe('coordinators on two databases of one Redis', () => {
  const redis = useRedisServer();

  it('exceed the plan together, and the note names the coordinator and its database', async () => {
    const db0 = `${redis().url}/0`;
    const db1 = `${redis().url}/1`;
    await settleTokens(db0, [TOKEN]);
    await settleTokens(db1, [TOKEN]);
    const emulator = await startEmulator({ clock: shiftedClock(Date.parse(NOW)), log: () => {} });
    try {
      const dir = tempDir('ql-two-db-');
      const common = ['--base-url', emulator.url, '--token', TOKEN, '--plan', 'professional', '--clock', NOW, '--since', '2026-11-02T00:00:00Z', '--until', '2026-11-12T00:00:00Z', '--json', '--quiet'];
      const runs = [
        startCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,ETHUSDT,EURUSD,GOLD', '--output', join(dir, 'a'), '--coordinator', db0, ...common]),
        startCli(['run', 'kline-backfill', '--codes', 'SHIBUSDT,USDJPY,Silver,USOIL', '--output', join(dir, 'b'), '--coordinator', db1, ...common]),
      ];
      const results = await Promise.all(runs.map((r) => r.result));
      const notes: string[] = [];
      let refused = 0;
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0);
        const run = (JSON.parse(r.stdout) as { runs: { notes: string[]; requestOutcomes: { rateLimited: number } }[] }).runs[0]!;
        refused += run.requestOutcomes.rateLimited;
        notes.push(...run.notes.filter((n) => n.includes('429 (rate limit)')));
      }
      expect(refused).toBeGreaterThan(0);
      expect(notes.length).toBeGreaterThan(0);
      for (const note of notes) {
        expect(note).toMatch(/another process is using the same token without sharing redis:\/\/127\.0\.0\.1:\d+\/[01]: give every process on the token this --coordinator, the same Redis and the same database/);
      }
    } finally {
      await emulator.close();
    }
  });
});
