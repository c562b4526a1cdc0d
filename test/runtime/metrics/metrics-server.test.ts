/** The `/metrics` endpoint: loopback by default, the exposition on GET /metrics, 404 elsewhere, closed cleanly. */
import { describe, expect, it } from 'vitest';
import { createMetrics, serveMetrics } from '../../../src/runtime/metrics/index.js';
import { parseExposition, valueOf } from '../../helpers/prom-text.js';

describe('serveMetrics', () => {
  it('answers GET /metrics on 127.0.0.1 with the current values; other paths and methods get 404', async () => {
    const m = createMetrics();
    const server = await serveMetrics(m, { port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      m.request('/quote-b-api/kline', 'ok');
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(valueOf(parseExposition(await res.text()), 'quotelake_requests_total', { endpoint: '/quote-b-api/kline', outcome: 'ok' })).toBe(1);
      // Scraped again after more work: the new value.
      m.request('/quote-b-api/kline', 'ok');
      expect(valueOf(parseExposition(await (await fetch(`${server.url}?x=1`)).text()), 'quotelake_requests_total', { outcome: 'ok' })).toBe(2);
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST', body: 'x' })).status).toBe(404);
      expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('a port in use fails to start with the address in the error', async () => {
    const m = createMetrics();
    const first = await serveMetrics(m, { port: 0 });
    try {
      const port = Number(new URL(first.url).port);
      await expect(serveMetrics(m, { port })).rejects.toMatchObject({ code: 'EADDRINUSE', port });
    } finally {
      await first.close();
    }
  });
});
