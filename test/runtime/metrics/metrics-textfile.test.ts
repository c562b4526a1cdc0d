/**
 * The textfile for node_exporter: written whole (a rename), at every interval while running and
 * once more at the stop with the final counts; writes never overtake each other.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics, startMetricsTextfile } from '../../../src/runtime/metrics/index.js';
import { parseExposition, valueOf } from '../../helpers/prom-text.js';

afterEach(() => {
  vi.useRealTimers();
});

function okCount(path: string): number {
  return valueOf(parseExposition(readFileSync(path, 'utf8')), 'quotelake_requests_total', { endpoint: '/e', outcome: 'ok' });
}

describe('startMetricsTextfile', () => {
  it('writes every interval (timers driven by hand) and the final counts at stop, leaving no temp file', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = mkdtempSync(join(tmpdir(), 'ql-textfile-'));
    const path = join(dir, 'sub', 'quotelake.prom');
    const m = createMetrics();
    const file = startMetricsTextfile(m, { path, intervalMs: 15_000 });
    m.request('/e', 'ok');
    vi.advanceTimersByTime(15_000);
    // flush() queues behind the periodic write, so once it is done, both are.
    await file.flush();
    expect(okCount(path)).toBe(1);
    m.request('/e', 'ok');
    m.request('/e', 'ok');
    vi.advanceTimersByTime(15_000);
    await file.flush();
    expect(okCount(path)).toBe(3);
    m.request('/e', 'ok');
    await file.stop();
    expect(okCount(path)).toBe(4);
    // Stopped: no more periodic writes.
    m.request('/e', 'ok');
    vi.advanceTimersByTime(60_000);
    await file.stop();
    expect(okCount(path)).toBe(4);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['quotelake.prom']);
  });

  it('leaves the process metrics out even when the metrics have them (an endpoint serves them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ql-textfile-'));
    const path = join(dir, 'quotelake.prom');
    const m = createMetrics({ processMetrics: true });
    m.request('/e', 'ok');
    expect(await m.text()).toMatch(/^process_cpu_user_seconds_total /m);
    await startMetricsTextfile(m, { path }).stop();
    const e = parseExposition(readFileSync(path, 'utf8'));
    expect(okCount(path)).toBe(1);
    expect(e.samples.filter((x) => !x.name.startsWith('quotelake_')).map((x) => x.name)).toEqual([]);
    expect([...e.types.keys()].every((n) => n.startsWith('quotelake_'))).toBe(true);
  });

  it('a failed periodic write is reported and the next one still happens; the final write throws', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = mkdtempSync(join(tmpdir(), 'ql-textfile-'));
    const m = createMetrics();
    const errors: unknown[] = [];
    // A folder where the file should be: every rename onto it fails.
    const path = join(dir, 'taken');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(path, 'inside'), { recursive: true });
    const file = startMetricsTextfile(m, { path, intervalMs: 1_000, onError: (e) => errors.push(e) });
    vi.advanceTimersByTime(1_000);
    await file.flush().catch(() => undefined);
    expect(errors).toHaveLength(1);
    await expect(file.stop()).rejects.toThrow();
  });

  it('makeFolder false: a folder removed meanwhile fails the write (ENOENT) and is not made again; the write after it is back is a recovery, with the failures counted', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { mkdirSync, rmSync, existsSync } = await import('node:fs');
    const dir = join(mkdtempSync(join(tmpdir(), 'ql-textfile-')), 'collector');
    mkdirSync(dir);
    const path = join(dir, 'quotelake.prom');
    const m = createMetrics();
    const codes: unknown[] = [];
    const recovered: number[] = [];
    const file = startMetricsTextfile(m, { path, intervalMs: 1_000, makeFolder: false, onError: (e) => codes.push((e as NodeJS.ErrnoException).code), onRecovered: (n) => recovered.push(n) });
    await file.flush();
    rmSync(dir, { recursive: true });
    for (let i = 0; i < 3; i += 1) {
      vi.advanceTimersByTime(1_000);
      await file.flush().catch(() => undefined);
    }
    expect(codes).toEqual(['ENOENT', 'ENOENT', 'ENOENT']);
    expect(existsSync(dir)).toBe(false);
    expect(recovered).toEqual([]);
    mkdirSync(dir);
    m.request('/e', 'ok');
    vi.advanceTimersByTime(1_000);
    await file.flush();
    expect(recovered).toEqual([3]);
    expect(okCount(path)).toBe(1);
    await file.stop();
    expect(recovered).toEqual([3]);
  });
});
