/** The service client a source talks through, taken from the component environment. */
import type { ServiceClient } from '../../api/index.js';
import type { ComponentEnv } from '../../core/definition.js';
import { checkServiceClient } from '../../core/service-client-check.js';

export function serviceClient(env: ComponentEnv, source: string): ServiceClient {
  checkServiceClient(env.client, source);
  return env.client as ServiceClient;
}
