/**
 * The product catalog the emulator serves and the client routes by (W11, I7).
 *
 * Depth levels follow spec 2.2 (forex, metals, crude 1; crypto 5; HK 10; US 1; A-shares 5); indexes,
 * CFD indexes and commodities get 1 (they quote a single level in practice).
 *
 * Locked books (spec 2.2 "one side may be empty"): `601318.SH` sits at limit-up (asks always
 * empty) and `000002.SZ` at limit-down (bids always empty); see `limitLock`.
 */
import type { Product, ProductClass, SessionName, StockMarket } from './types.js';

interface ClassDefaults {
  family: Product['family'];
  depthLevels: number;
  endTimestampSupported: boolean;
  supportsMultiHourBars: boolean;
  session: SessionName;
  gridZone: string;
}

const NON_STOCK_FX: Omit<ClassDefaults, 'depthLevels' | 'endTimestampSupported'> = {
  family: 'non-stock',
  supportsMultiHourBars: true,
  session: 'fx-week',
  gridZone: 'UTC',
};

const CLASS_DEFAULTS: Record<Exclude<ProductClass, 'index'>, ClassDefaults> = {
  'us-stock': { family: 'stock', depthLevels: 1, endTimestampSupported: false, supportsMultiHourBars: false, session: 'us-equity', gridZone: 'America/New_York' },
  'hk-stock': { family: 'stock', depthLevels: 10, endTimestampSupported: false, supportsMultiHourBars: false, session: 'hk-equity', gridZone: 'Asia/Hong_Kong' },
  'cn-stock': { family: 'stock', depthLevels: 5, endTimestampSupported: false, supportsMultiHourBars: false, session: 'cn-equity', gridZone: 'Asia/Shanghai' },
  forex: { ...NON_STOCK_FX, depthLevels: 1, endTimestampSupported: true },
  metal: { ...NON_STOCK_FX, depthLevels: 1, endTimestampSupported: true },
  energy: { ...NON_STOCK_FX, depthLevels: 1, endTimestampSupported: false },
  'cfd-index': { ...NON_STOCK_FX, depthLevels: 1, endTimestampSupported: false },
  commodity: { ...NON_STOCK_FX, depthLevels: 1, endTimestampSupported: false },
  crypto: { family: 'non-stock', depthLevels: 5, endTimestampSupported: true, supportsMultiHourBars: true, session: 'always', gridZone: 'UTC' },
};

const MARKET_OF: Record<'us-stock' | 'hk-stock' | 'cn-stock', StockMarket> = { 'us-stock': 'US', 'hk-stock': 'HK', 'cn-stock': 'CN' };

function product(
  productClass: Exclude<ProductClass, 'index'>,
  code: string,
  name: string,
  priceDecimals: number,
  volumeDecimals: number,
  listedSince: string,
  referencePrice: string,
  extra: Partial<Pick<Product, 'bookHasVolume' | 'limitLock'>> = {},
): Product {
  const d = CLASS_DEFAULTS[productClass];
  const market = productClass === 'us-stock' || productClass === 'hk-stock' || productClass === 'cn-stock' ? MARKET_OF[productClass] : null;
  return Object.freeze({
    code,
    name,
    productClass,
    family: d.family,
    market,
    depthLevels: d.depthLevels,
    priceDecimals,
    volumeDecimals,
    endTimestampSupported: d.endTimestampSupported,
    supportsMultiHourBars: d.supportsMultiHourBars,
    bookHasVolume: extra.bookHasVolume ?? true,
    session: d.session,
    gridZone: d.gridZone,
    listedSince,
    referencePrice,
    ...(extra.limitLock ? { limitLock: extra.limitLock } : {}),
  });
}

const INDEX_MARKET: Record<StockMarket, { session: SessionName; gridZone: string }> = {
  US: { session: 'us-equity', gridZone: 'America/New_York' },
  HK: { session: 'hk-equity', gridZone: 'Asia/Hong_Kong' },
  CN: { session: 'cn-equity', gridZone: 'Asia/Shanghai' },
};

function index(code: string, name: string, market: StockMarket, listedSince: string, referencePrice: string): Product {
  const m = INDEX_MARKET[market];
  return Object.freeze({
    code,
    name,
    productClass: 'index',
    family: 'stock',
    market,
    depthLevels: 1,
    priceDecimals: 2,
    volumeDecimals: 0,
    endTimestampSupported: false,
    supportsMultiHourBars: false,
    bookHasVolume: true,
    session: m.session,
    gridZone: m.gridZone,
    listedSince,
    referencePrice,
  });
}

export const PRODUCTS: readonly Product[] = Object.freeze([
  // US stocks
  product('us-stock', 'AAPL.US', 'Apple Inc.', 2, 0, '1980-12-12', '230.00'),
  product('us-stock', 'TSLA.US', 'Tesla Inc.', 2, 0, '2010-06-29', '250.00'),
  product('us-stock', 'MSFT.US', 'Microsoft Corp.', 2, 0, '1986-03-13', '420.00'),
  product('us-stock', 'NVDA.US', 'NVIDIA Corp.', 2, 0, '1999-01-22', '130.00'),
  product('us-stock', 'AMZN.US', 'Amazon.com Inc.', 2, 0, '1997-05-15', '190.00'),
  product('us-stock', 'META.US', 'Meta Platforms Inc.', 2, 0, '2012-05-18', '560.00'),
  product('us-stock', 'UNH.US', 'UnitedHealth Group Inc.', 2, 0, '1984-10-17', '480.00'),
  product('us-stock', 'KO.US', 'Coca-Cola Co.', 2, 0, '1962-01-02', '62.00'),
  // HK stocks
  product('hk-stock', '700.HK', 'Tencent Holdings', 3, 2, '2004-06-16', '380.000'),
  product('hk-stock', '857.HK', 'PetroChina', 3, 2, '2000-04-07', '7.200'),
  product('hk-stock', '9988.HK', 'Alibaba Group', 3, 2, '2019-11-26', '85.000'),
  product('hk-stock', '3690.HK', 'Meituan', 3, 2, '2018-09-20', '120.000'),
  product('hk-stock', '1299.HK', 'AIA Group', 3, 2, '2010-10-29', '60.000'),
  product('hk-stock', '5.HK', 'HSBC Holdings', 3, 2, '1991-01-02', '70.000'),
  // A-shares
  product('cn-stock', '600000.SH', 'Shanghai Pudong Development Bank', 2, 0, '1999-11-10', '9.50'),
  product('cn-stock', '600519.SH', 'Kweichow Moutai', 2, 0, '2001-08-27', '1500.00'),
  product('cn-stock', '601318.SH', 'Ping An Insurance', 2, 0, '2007-03-01', '50.00', { limitLock: 'up' }),
  product('cn-stock', '000001.SZ', 'Ping An Bank', 2, 0, '1991-04-03', '11.00'),
  product('cn-stock', '000002.SZ', 'China Vanke', 2, 0, '1991-01-29', '7.00', { limitLock: 'down' }),
  product('cn-stock', '300750.SZ', 'CATL', 2, 0, '2018-06-11', '200.00'),
  // Indexes (stock family)
  index('SPX.US', 'S&P 500 Index', 'US', '1990-01-02', '5500.00'),
  index('IXIC.US', 'NASDAQ Composite', 'US', '1990-01-02', '17500.00'),
  index('DJI.US', 'Dow Jones Industrial Average', 'US', '1990-01-02', '40000.00'),
  index('HSI.HK', 'Hang Seng Index', 'HK', '1990-01-02', '18000.00'),
  index('HSTECH.HK', 'Hang Seng TECH Index', 'HK', '2020-07-27', '4000.00'),
  index('000001.SH', 'SSE Composite Index', 'CN', '1991-07-15', '3000.00'),
  index('399001.SZ', 'SZSE Component Index', 'CN', '1995-01-23', '9500.00'),
  // Forex
  product('forex', 'EURUSD', 'Euro / US Dollar', 5, 2, '1999-01-04', '1.08000'),
  product('forex', 'GBPUSD', 'British Pound / US Dollar', 5, 2, '1995-01-02', '1.27000'),
  product('forex', 'USDJPY', 'US Dollar / Japanese Yen', 3, 2, '1995-01-02', '150.000'),
  product('forex', 'EURJPY', 'Euro / Japanese Yen', 3, 2, '1999-01-04', '162.000'),
  product('forex', 'AUDUSD', 'Australian Dollar / US Dollar', 5, 2, '1995-01-02', '0.66000'),
  product('forex', 'USDCHF', 'US Dollar / Swiss Franc', 5, 2, '1995-01-02', '0.88000'),
  product('forex', 'USDCNH', 'US Dollar / Offshore Yuan', 5, 2, '2010-08-23', '7.20000'),
  // Precious metals
  product('metal', 'GOLD', 'Gold spot', 2, 2, '2000-01-03', '2300.00'),
  product('metal', 'Silver', 'Silver spot', 3, 2, '2000-01-03', '28.000'),
  product('metal', 'XPTUSD', 'Platinum spot', 2, 2, '2005-01-03', '950.00'),
  // Energy
  product('energy', 'USOIL', 'WTI crude oil', 2, 2, '2005-01-03', '75.00'),
  product('energy', 'UKOIL', 'Brent crude oil', 2, 2, '2005-01-03', '80.00'),
  product('energy', 'NGAS', 'Natural gas', 3, 2, '2008-01-02', '2.500'),
  // Crypto
  product('crypto', 'BTCUSDT', 'Bitcoin / Tether', 2, 5, '2017-08-17', '60000.00'),
  product('crypto', 'ETHUSDT', 'Ether / Tether', 2, 4, '2017-08-17', '3000.00'),
  product('crypto', 'SOLUSDT', 'Solana / Tether', 2, 3, '2020-08-11', '150.00'),
  product('crypto', 'DOGEUSDT', 'Dogecoin / Tether', 5, 0, '2019-07-05', '0.15000'),
  product('crypto', 'SHIBUSDT', 'Shiba Inu / Tether', 8, 0, '2021-05-10', '0.00002000'),
  product('crypto', 'PEPEUSDT', 'Pepe / Tether', 10, 0, '2023-05-05', '0.0000100000'),
  product('crypto', 'WLDUSDT', 'Worldcoin / Tether', 4, 2, '2023-07-24', '2.0000'),
  product('crypto', 'TONUSDT', 'Toncoin / Tether', 4, 2, '2024-08-08', '5.5000'),
  // CFD indexes
  product('cfd-index', 'US500', 'US 500 CFD', 2, 2, '2010-01-04', '5500.00', { bookHasVolume: false }),
  product('cfd-index', 'NAS100', 'US Tech 100 CFD', 2, 2, '2010-01-04', '19000.00', { bookHasVolume: false }),
  product('cfd-index', 'GER40', 'Germany 40 CFD', 2, 2, '2010-01-04', '18000.00'),
  // Commodities
  product('commodity', 'COPPER', 'Copper', 4, 0, '2008-01-02', '4.5000'),
  product('commodity', 'CORN', 'Corn', 2, 0, '2008-01-02', '450.00'),
  product('commodity', 'COFFEE', 'Coffee', 2, 0, '2008-01-02', '230.00'),
]);
