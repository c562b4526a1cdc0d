/**
 * undici's Pool from its own modules, not from the package's index: the index also loads fetch,
 * WebSocket, cookies, caches and mocks, which quotelake never uses, and that cost every run about
 * 50 CPU-ms at start (measured on Node 20). What the index adds to every dispatcher and this file
 * uses, `request()`, is added here the same way. The types are the index's
 * (src/types/undici-pool.d.ts); test/api/http-transport.test.ts sends real requests through it.
 */
import type { Pool as PoolClass } from 'undici';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
import PoolModule from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';

// As undici's index does (`Object.assign(Dispatcher.prototype, api)`); a no-op once it has.
if (DispatcherModule.prototype.request === undefined) Object.assign(DispatcherModule.prototype, { request });

export const Pool: typeof PoolClass = PoolModule;
