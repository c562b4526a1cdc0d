/**
 * Whether a source that talks to the service was given a client to talk through. Core, so the
 * runtime can refuse a run without one before it touches the output, and the sources (which
 * throw the same error when run without the runtime) say it in the same words.
 */
import { ConfigError } from './errors.js';

export function checkServiceClient(client: unknown, source: string): void {
  if (client === undefined) throw new ConfigError(`source ${source} needs the service client (set the base URL, token and plan)`);
  // The runtime hands the client on as a value it does not know (the folder arrows keep it from api/).
  if (typeof (client as { kline?: unknown } | null)?.kline !== 'function') {
    throw new ConfigError(`source ${source} needs the service client, and was given ${describe(client)}: pass what createClient() returns (RunOptions.client)`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object without kline()';
}
