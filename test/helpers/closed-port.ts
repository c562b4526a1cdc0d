import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768-60999 by default): a server that binds port 0, as every test
 * server does, is never given one of these, so a port found free here stays refused. A port from
 * the ephemeral range could be handed to another test's server between this check and the
 * connection (seen: a "closed" Redis port answered by an emulator's HTTP).
 */
const LOW = 20_000;
const HIGH = 32_767;

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A loopback port with nothing listening on it (bound, then closed): connecting is refused. */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await bindable(port)) return port;
  }
}
