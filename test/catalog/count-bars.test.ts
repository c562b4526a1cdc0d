import { describe, expect, it } from 'vitest';
import { barOpens, countBars, intervalSupported, listProducts } from '../../src/catalog/index.js';
import { INTERVALS } from '../../src/core/records.js';
import { mulberry32 } from '../../src/core/mulberry32.js';

describe('countBars counts without walking what it need not, and equals the walk', () => {
  it('equals the length of barOpens for every product, interval and range, with and without now', () => {
    const random = mulberry32(2026);
    const now = Date.parse('2026-11-20T13:37:21.5Z');
    const products = listProducts();
    for (let k = 0; k < 3000; k++) {
      const product = products[Math.floor(random() * products.length)]!;
      const interval = INTERVALS[Math.floor(random() * INTERVALS.length)]!;
      if (!intervalSupported(product, interval)) continue;
      const long = interval === '1d' || interval === '1w' || interval === '1mo';
      // Ends on and off the minute, spans from a few minutes to weeks (years for long bars).
      const to = now - Math.floor(random() * 30 * 86_400_000) + (random() < 0.5 ? 0 : Math.floor(random() * 60_000));
      const from = to - Math.floor(random() * (random() < 0.3 ? 3_600_000 : (long ? 400 : 20) * 86_400_000));
      const withNow = random() < 0.5 ? now : undefined;
      const walked = [...barOpens(product, interval, from, to, withNow)].length;
      expect(countBars(product, interval, from, to, withNow), `${product.code} ${interval} ${new Date(from).toISOString()}..${new Date(to).toISOString()} now ${withNow}`).toBe(walked);
    }
  });
});
