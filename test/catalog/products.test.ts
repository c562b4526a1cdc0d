import { describe, expect, it } from 'vitest';
import {
  KLINE_INTERVALS,
  familyOf,
  findProduct,
  intervalToKlineType,
  intradayMinutes,
  klineTypeToInterval,
  listProducts,
} from '../../src/catalog/index.js';
import { dayNumberOfIsoDate } from '../../src/catalog/zone-days.js';

const REQUIRED = ['AAPL.US', 'TSLA.US', '700.HK', '857.HK', '600000.SH', '000001.SZ', 'EURUSD', 'USDJPY', 'GOLD', 'Silver', 'USOIL', 'BTCUSDT', 'ETHUSDT', 'SHIBUSDT', 'US500'];

describe('product catalog', () => {
  const products = listProducts();

  it('has at least 40 unique products including every I7 code', () => {
    expect(products.length).toBeGreaterThanOrEqual(40);
    expect(new Set(products.map((p) => p.code)).size).toBe(products.length);
    for (const code of REQUIRED) expect(findProduct(code)?.code).toBe(code);
  });

  it('covers every class and market', () => {
    const classes = new Set(products.map((p) => p.productClass));
    expect([...classes].sort()).toEqual(['cfd-index', 'cn-stock', 'commodity', 'crypto', 'energy', 'forex', 'hk-stock', 'index', 'metal', 'us-stock']);
    const indexSuffixes = new Set(products.filter((p) => p.productClass === 'index').map((p) => p.code.split('.')[1]));
    expect([...indexSuffixes].sort()).toEqual(['HK', 'SH', 'SZ', 'US']);
  });

  it('is case-sensitive', () => {
    expect(findProduct('Silver')?.code).toBe('Silver');
    expect(findProduct('SILVER')).toBeUndefined();
    expect(findProduct('aapl.us')).toBeUndefined();
  });

  it('sets per-class attributes (W4, W11, W12, spec 2.2)', () => {
    const depth: Record<string, number> = { 'us-stock': 1, 'hk-stock': 10, 'cn-stock': 5, forex: 1, metal: 1, energy: 1, crypto: 5 };
    for (const p of products) {
      const stock = p.productClass === 'us-stock' || p.productClass === 'hk-stock' || p.productClass === 'cn-stock' || p.productClass === 'index';
      expect(p.family, p.code).toBe(stock ? 'stock' : 'non-stock');
      expect(p.market === null, p.code).toBe(!stock);
      expect(familyOf(p.code)).toBe(p.family);
      if (depth[p.productClass] !== undefined) expect(p.depthLevels, p.code).toBe(depth[p.productClass]);
      expect(p.depthLevels).toBeGreaterThanOrEqual(1);
      expect(p.endTimestampSupported, p.code).toBe(['forex', 'metal', 'crypto'].includes(p.productClass));
      expect(p.supportsMultiHourBars, p.code).toBe(!stock);
      const zone = p.market === 'US' ? 'America/New_York' : p.market === 'HK' ? 'Asia/Hong_Kong' : p.market === 'CN' ? 'Asia/Shanghai' : 'UTC';
      expect(p.gridZone, p.code).toBe(zone);
      const session = p.market === 'US' ? 'us-equity' : p.market === 'HK' ? 'hk-equity' : p.market === 'CN' ? 'cn-equity' : p.productClass === 'crypto' ? 'always' : 'fx-week';
      expect(p.session, p.code).toBe(session);
      // referencePrice carries exactly priceDecimals decimals
      const frac = p.referencePrice.split('.')[1] ?? '';
      expect(frac.length, p.code).toBe(p.priceDecimals);
      expect(Number.isInteger(dayNumberOfIsoDate(p.listedSince))).toBe(true);
    }
  });

  it('has the documented special cases', () => {
    expect(findProduct('USDJPY')?.priceDecimals).toBe(3);
    expect(findProduct('SHIBUSDT')?.priceDecimals).toBe(8);
    expect(findProduct('US500')?.bookHasVolume).toBe(false);
    expect(findProduct('601318.SH')?.limitLock).toBe('up');
    expect(findProduct('000002.SZ')?.limitLock).toBe('down');
    const crypto = products.filter((p) => p.productClass === 'crypto').map((p) => p.listedSince);
    expect(crypto.some((d) => d >= '2024-01-01')).toBe(true);
    expect(crypto.some((d) => d < '2019-01-01')).toBe(true);
  });

  it('routes unknown codes by suffix (W11)', () => {
    expect(familyOf('IBM.US')).toBe('stock');
    expect(familyOf('601988.SH')).toBe('stock');
    expect(familyOf('XAUUSD')).toBe('non-stock');
  });

  it('maps kline types 1..10 to intervals', () => {
    expect(KLINE_INTERVALS).toEqual(['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1mo']);
    KLINE_INTERVALS.forEach((iv, i) => {
      expect(klineTypeToInterval(i + 1)).toBe(iv);
      expect(intervalToKlineType(iv)).toBe(i + 1);
    });
    expect(klineTypeToInterval(0)).toBeUndefined();
    expect(klineTypeToInterval(11)).toBeUndefined();
    expect(klineTypeToInterval(1.5)).toBeUndefined();
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(intradayMinutes)).toEqual([1, 5, 15, 30, 60, 120, 240, undefined]);
  });
});
