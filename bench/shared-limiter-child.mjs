// One process of the shared-limiter bench: a client on the shared token, through the Redis
// coordinator, sending `n` requests as fast as the shared plan admits them.
import { createClient } from '../dist/api/index.js';
import { RedisCoordinator } from '../dist/api/redis/index.js';

const [baseUrl, redisUrl, n, stateDir] = process.argv.slice(2);
const coordinator = await RedisCoordinator.connect(redisUrl);
const client = createClient({ baseUrl, token: 'demo-professional', plan: 'professional', stateDir, coordinator });
await Promise.all(Array.from({ length: Number(n) }, () => client.tradeTicks(['EURUSD'])));
await client.close();
await coordinator.close();
