import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { startHarness, type Harness } from './harness.js';

/**
 * The exact bytes of a few /kline answers of the real synthetic market (seed 1, frozen clocks),
 * pinned by their sha256: the emulator is the ground truth of every other test, so a speed-up of
 * its hot path must not change a single byte of what it serves.
 */
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

interface Page {
  family: 'stock' | 'non-stock';
  code: string;
  klineType: number;
  endSec: number;
  count: number;
}

const sec = (iso: string): number => Date.parse(iso) / 1000;

const PAGES: readonly Page[] = [
  { family: 'non-stock', code: 'BTCUSDT', klineType: 1, endSec: 0, count: 500 },
  { family: 'non-stock', code: 'BTCUSDT', klineType: 1, endSec: sec('2026-03-14T07:26:59Z'), count: 500 },
  { family: 'non-stock', code: 'SHIBUSDT', klineType: 1, endSec: sec('2026-06-01T00:00:00Z'), count: 500 },
  { family: 'non-stock', code: 'EURUSD', klineType: 1, endSec: sec('2026-11-16T00:10:00Z'), count: 500 }, // over a weekend
  { family: 'non-stock', code: 'GOLD', klineType: 1, endSec: sec('2026-07-04T12:00:00Z'), count: 500 },
  { family: 'non-stock', code: 'Silver', klineType: 1, endSec: 0, count: 7 },
  { family: 'non-stock', code: 'USDJPY', klineType: 1, endSec: sec('2025-12-26T03:00:00Z'), count: 500 }, // a holiday
  // Stocks take no end (W6): the newest bars, over sessions, nights, a lunch break, quiet minutes.
  { family: 'stock', code: 'AAPL.US', klineType: 1, endSec: 0, count: 500 },
  { family: 'stock', code: '700.HK', klineType: 1, endSec: 0, count: 333 },
  { family: 'stock', code: '857.HK', klineType: 1, endSec: 0, count: 500 },
  { family: 'non-stock', code: 'XPTUSD', klineType: 1, endSec: sec('1990-01-01T00:00:00Z'), count: 500 }, // before listing
  { family: 'non-stock', code: 'DOGEUSDT', klineType: 1, endSec: sec('2026-11-19T23:59:59Z'), count: 1 },
  { family: 'non-stock', code: 'ETHUSDT', klineType: 2, endSec: sec('2026-10-01T00:00:00Z'), count: 500 },
  { family: 'non-stock', code: 'BTCUSDT', klineType: 8, endSec: 0, count: 30 },
];

async function bodies(clockIso: string): Promise<string[]> {
  const h: Harness = await startHarness({ backends: undefined, seed: 1, limits: false, clock: new ManualClock(clockIso) });
  try {
    const out: string[] = [];
    for (const p of PAGES) {
      const r = await h.market(p.family, 'kline', 'demo-professional', {
        trace: `pin-${p.code}`,
        data: { code: p.code, kline_type: p.klineType, kline_timestamp_end: p.endSec, query_kline_num: p.count, adjust_type: 0 },
      });
      expect(r.status).toBe(200);
      expect(r.json.ret).toBe(200);
      expect(r.text).toBe(JSON.stringify(r.json));
      expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
      out.push(r.text);
    }
    return out;
  } finally {
    await h.close();
  }
}

describe('/kline bodies are pinned byte for byte', () => {
  let atMidnight: string[];
  let midMinute: string[];
  beforeAll(async () => {
    atMidnight = await bodies('2026-11-20T00:00:00.000Z');
    midMinute = await bodies('2026-11-20T15:03:27.123Z'); // a Friday: forming bars in FX, crypto and US stocks
  });

  it('at 2026-11-20T00:00:00Z', () => {
    expect(atMidnight.map(sha)).toEqual(EXPECTED_MIDNIGHT);
  });
  it('at 2026-11-20T15:03:27.123Z (forming bars)', () => {
    expect(midMinute.map(sha)).toEqual(EXPECTED_MID_MINUTE);
  });
  it('asking twice gives the same bytes (caches change nothing)', async () => {
    expect(await bodies('2026-11-20T15:03:27.123Z')).toEqual(midMinute);
  });
});

const EXPECTED_MIDNIGHT: readonly string[] = [
  'dd84211aa9f18efa87a05d5e63e7f95f79f876606b86a194d8f3823a04a2fdfd',
  '3eef81ffc4cf172127b1b008c13508d93abf6757c7525c6b666f9a34aae61f5a',
  'ab71abde5467f5efa1e9703058a6cc4cfb89be5ac0388a85582bdebbea2c99c1',
  'c4e6e25d0c2f86dea2fba9c05032ffab64266ff166c5aa81df8285fc44f01fc2',
  '5299c72a5084c0dbe42933ac5435f113a45f848367d9c601d1632c4a6a590b74',
  '16d0a7780e0a333d82e232d2b96e427575e880f1f3de698bb01870dd7c2e199c',
  '6aef3e3a79c1638689c6529c32f9788f402de75497aba9f8d226800f32c56ed4',
  'cce18419b0e4d7e18ef9cec296134adf4e130ed78867b5c43c1272ca12174e67',
  'ae1d69f365e1522881dcd525f38b783a14bf05e5dbac8f29c657d6aeaed7605a',
  '70588a11cda0ca3f98bf119e31b475e9e5c278564fa43ec9e808cd0ce7ff1ef0',
  'a2e63b13cd0a9dfc452e651de9d7b0133dc142946fca39414b72948bbfea8615',
  '3a00f09a026cf336bf81fe026322549aeddab2505c749e3b1fa0d0346637b8d2',
  'f5130377b4503f698ea4e01427746f55cb84abe53f983c9ce5baa082addbc28a',
  '60bcbfe4e9940d320d64e2d86830c15db78616c6a8edb71bb5ac16159d4f909b',
];
const EXPECTED_MID_MINUTE: readonly string[] = [
  '81ce82c978ef4a105e3ec4d9367ac6921823cc5481b009ec94da96e05071fbe1',
  '3eef81ffc4cf172127b1b008c13508d93abf6757c7525c6b666f9a34aae61f5a',
  'ab71abde5467f5efa1e9703058a6cc4cfb89be5ac0388a85582bdebbea2c99c1',
  'c4e6e25d0c2f86dea2fba9c05032ffab64266ff166c5aa81df8285fc44f01fc2',
  '5299c72a5084c0dbe42933ac5435f113a45f848367d9c601d1632c4a6a590b74',
  '4cf109f5fe0734a1d6c47ef36bbe3937ba1b3ef621a68450a90acb08d1dc3f84',
  '6aef3e3a79c1638689c6529c32f9788f402de75497aba9f8d226800f32c56ed4',
  '21da1f61a0f59989cc1c44cd4b1732e1961ce3e679b8c0ecbc7536c47acac428',
  'ed73651c53f0a4a11bc4c4e946700885905ac27360624a8740ad0cc22d0a96ce',
  '0a96503d819586f5a12e60875f9042576c1979058498743e9903c50fa3a9ff1b',
  'a2e63b13cd0a9dfc452e651de9d7b0133dc142946fca39414b72948bbfea8615',
  '3a00f09a026cf336bf81fe026322549aeddab2505c749e3b1fa0d0346637b8d2',
  'f5130377b4503f698ea4e01427746f55cb84abe53f983c9ce5baa082addbc28a',
  '746dc9d7816a625d9f90c85fc38a798f597b9297b9b56dbd189346252115b657',
];
