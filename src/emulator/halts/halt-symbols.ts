/** Listed names the halt generator draws from: [symbol, name]. */
export type Listing = readonly [symbol: string, name: string];

export const SSE_LISTINGS: readonly Listing[] = [
  ['600000', '浦发银行'], ['600009', '上海机场'], ['600016', '民生银行'], ['600028', '中国石化'],
  ['600030', '中信证券'], ['600036', '招商银行'], ['600048', '保利发展'], ['600050', '中国联通'],
  ['600104', '上汽集团'], ['600276', '恒瑞医药'], ['600309', '万华化学'], ['600406', '国电南瑞'],
  ['600438', '通威股份'], ['600519', '贵州茅台'], ['600585', '海螺水泥'], ['600690', '海尔智家'],
  ['600745', '闻泰科技'], ['600887', '伊利股份'], ['600900', '长江电力'], ['601012', '隆基绿能'],
  ['601088', '中国神华'], ['601166', '兴业银行'], ['601288', '农业银行'], ['601318', '中国平安'],
  ['601398', '工商银行'], ['601628', '中国人寿'], ['601633', '长城汽车'], ['601668', '中国建筑'],
  ['601857', '中国石油'], ['601888', '中国中免'], ['601899', '紫金矿业'], ['601988', '中国银行'],
  ['603259', '药明康德'], ['603288', '海天味业'], ['603501', '韦尔股份'], ['688001', '华兴源创'],
  ['688012', '中微公司'], ['688036', '传音控股'], ['688111', '金山办公'], ['688981', '中芯国际'],
];

/** US listings with the venue that lists them (the `sourceExchange` of their halts). */
export type UsListing = readonly [symbol: string, name: string, venue: string];

export const NYSE_LISTINGS: readonly UsListing[] = [
  ['BRK.A', 'Berkshire Hathaway Inc.', 'NYSE'], ['KO', 'The Coca-Cola Company', 'NYSE'],
  ['IBM', 'International Business Machines Corporation', 'NYSE'], ['GE', 'GE Aerospace', 'NYSE'],
  ['JPM', 'JPMorgan Chase & Co.', 'NYSE'], ['XOM', 'Exxon Mobil Corporation', 'NYSE'],
  ['BA', 'The Boeing Company', 'NYSE'], ['DIS', 'The Walt Disney Company', 'NYSE'],
  ['T', 'AT&T Inc.', 'NYSE'], ['F', 'Ford Motor Company', 'NYSE'], ['GME', 'GameStop Corp.', 'NYSE'],
  ['AMC', 'AMC Entertainment Holdings, Inc.', 'NYSE'], ['BABA', 'Alibaba Group Holding Limited', 'NYSE'],
  ['XYZ', 'XYZ Holdings', 'NYSE'], ['UEC', 'Uranium Energy Corp.', 'NYSE American'],
  ['GSAT', 'Globalstar, Inc.', 'NYSE American'], ['UUUU', 'Energy Fuels Inc.', 'NYSE American'],
  ['SPY', 'SPDR S&P 500 ETF Trust', 'NYSE Arca'], ['GLD', 'SPDR Gold Shares', 'NYSE Arca'],
  ['ARKK', 'ARK Innovation ETF', 'NYSE Arca'], ['XLF', 'Financial Select Sector SPDR Fund', 'NYSE Arca'],
  ['USO', 'United States Oil Fund, LP', 'NYSE Arca'],
];

/** NASDAQ's halt list also covers securities listed elsewhere, hence the other venues. */
export const NASDAQ_LISTINGS: readonly UsListing[] = [
  ['AAPL', 'Apple Inc.', 'NASDAQ'], ['GOOGL', 'Alphabet Inc.', 'NASDAQ'], ['TSLA', 'Tesla, Inc.', 'NASDAQ'],
  ['MSFT', 'Microsoft Corporation', 'NASDAQ'], ['NVDA', 'NVIDIA Corporation', 'NASDAQ'],
  ['AMZN', 'Amazon.com, Inc.', 'NASDAQ'], ['META', 'Meta Platforms, Inc.', 'NASDAQ'],
  ['NFLX', 'Netflix, Inc.', 'NASDAQ'], ['AMD', 'Advanced Micro Devices, Inc.', 'NASDAQ'],
  ['INTC', 'Intel Corporation', 'NASDAQ'], ['SMCI', 'Super Micro Computer, Inc.', 'NASDAQ'],
  ['COIN', 'Coinbase Global, Inc.', 'NASDAQ'], ['MULN', 'Mullen Automotive Inc.', 'NASDAQ'],
  ['FFIE', 'Faraday Future Intelligent Electric Inc.', 'NASDAQ'], ['SIRI', 'Sirius XM Holdings Inc.', 'NASDAQ'],
  ['ZM', 'Zoom Communications, Inc.', 'NASDAQ'], ['PYPL', 'PayPal Holdings, Inc.', 'NASDAQ'],
  ['GME', 'GameStop Corp.', 'NYSE'], ['AMC', 'AMC Entertainment Holdings, Inc.', 'NYSE'],
  ['UEC', 'Uranium Energy Corp.', 'NYSE American'], ['ARKK', 'ARK Innovation ETF', 'NYSE Arca'],
];

/** Distinct picks, so one day never holds two halts of the same symbol. */
export function pickDistinct<T>(items: readonly T[], count: number, next: () => number): T[] {
  const pool = items.slice();
  const out: T[] = [];
  for (let i = 0; i < count && pool.length > 0; i++) {
    const j = Math.floor(next() * pool.length);
    const [item] = pool.splice(j, 1);
    if (item !== undefined) out.push(item);
  }
  return out;
}
