/** The service client a source talks through, taken from the component environment. */
import type { ServiceClient } from '../../api/index.js';
import type { ComponentEnv } from '../../core/definition.js';
import { ConfigError } from '../../core/errors.js';

export function serviceClient(env: ComponentEnv, source: string): ServiceClient {
  const client = env.client as ServiceClient | undefined;
  if (client === undefined || typeof client.kline !== 'function') {
    throw new ConfigError(`source ${source} needs the service client (set the base URL, token and plan)`);
  }
  return client;
}
