/** The service client a source talks through, taken from the component environment. */
import type { ServiceClient } from '../../api/index.js';
import type { ComponentEnv } from '../../core/definition.js';
import { ConfigError } from '../../core/errors.js';

export function serviceClient(env: ComponentEnv, source: string): ServiceClient {
  const client = env.client as ServiceClient | undefined;
  if (client === undefined) throw new ConfigError(`source ${source} needs the service client (set the base URL, token and plan)`);
  // The runtime hands the client on as a value it does not know (the folder arrows keep it from api/).
  if (typeof client.kline !== 'function') {
    throw new ConfigError(`source ${source} needs the service client, and was given ${describe(client)}: pass what createClient() returns (RunOptions.client)`);
  }
  return client;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object without kline()';
}
