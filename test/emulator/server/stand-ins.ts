/**
 * Small stand-ins for the catalog, synthetic market and halt archive, so the HTTP layer is tested on
 * its own (its rules do not depend on what the data looks like).
 */
import type { Product, ProductClass, StockMarket } from '../../../src/catalog/types.js';
import type { EmulatorBackends } from '../../../src/emulator/backends.js';
import type { HaltExchange, WireHaltRecord, WireKline } from '../../../src/emulator/contracts.js';

function product(code: string, productClass: ProductClass, market: StockMarket | null): Product {
  const stock = ['us-stock', 'hk-stock', 'cn-stock', 'index'].includes(productClass);
  return {
    code,
    name: code,
    productClass,
    family: stock ? 'stock' : 'non-stock',
    market,
    depthLevels: 1,
    priceDecimals: 2,
    volumeDecimals: 0,
    endTimestampSupported: ['forex', 'metal', 'crypto'].includes(productClass),
    supportsMultiHourBars: !stock,
    bookHasVolume: code !== 'US500',
    session: 'always',
    gridZone: 'UTC',
    listedSince: '2000-01-01',
    referencePrice: '100.00',
  };
}

export const STAND_IN_PRODUCTS: readonly Product[] = [
  product('AAPL.US', 'us-stock', 'US'),
  product('TSLA.US', 'us-stock', 'US'),
  product('700.HK', 'hk-stock', 'HK'),
  product('857.HK', 'hk-stock', 'HK'),
  product('600000.SH', 'cn-stock', 'CN'),
  product('000001.SZ', 'cn-stock', 'CN'),
  product('EURUSD', 'forex', null),
  product('USDJPY', 'forex', null),
  product('GOLD', 'metal', null),
  product('Silver', 'metal', null),
  product('USOIL', 'energy', null),
  product('BTCUSDT', 'crypto', null),
  product('ETHUSDT', 'crypto', null),
  product('SHIBUSDT', 'crypto', null),
  product('US500', 'cfd-index', null),
];

const byCode = new Map(STAND_IN_PRODUCTS.map((p) => [p.code, p]));

export const haltCounts: Record<HaltExchange, number> = { sse: 7, nyse: 5, nasdaq: 0 };

export function standInBackends(): EmulatorBackends {
  return {
    findProduct: (code) => byCode.get(code),
    market: {
      klines(p, klineType, endSec, count, nowMs): WireKline[] {
        const step = 60;
        const last = endSec !== 0 ? endSec - (endSec % step) : Math.floor(nowMs / 1000 / step) * step;
        return Array.from({ length: count }, (_, i) => ({
          timestamp: String(last - (count - 1 - i) * step),
          open_price: '100.00',
          close_price: '100.10',
          high_price: '100.20',
          low_price: '99.90',
          volume: String(klineType),
          turnover: '10010.00',
        }));
      },
      depth: (p, nowMs) => ({
        code: p.code,
        seq: '1',
        tick_time: String(nowMs),
        bids: [{ price: '99.99', volume: '100' }],
        asks: [{ price: '100.01', volume: '200' }],
      }),
      trade: (p, nowMs) => ({
        code: p.code,
        seq: '2',
        tick_time: String(nowMs),
        price: '100.00',
        volume: '10',
        turnover: '1000.00',
        trade_direction: 0,
      }),
    },
    halts: {
      records: (exchange, _nowMs): WireHaltRecord[] =>
        Array.from({ length: haltCounts[exchange] }, (_, i) => ({
          symbol: `S${i}`,
          haltReason: null,
          publishDate: `2024-01-${String(20 - i).padStart(2, '0')} 10:00:00`,
        })),
    },
  };
}
