/** The network thread holds the process open only while a request is in flight (network-thread.ts). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the network thread', () => {
  it('lets a process whose client was never closed exit once its last answer is in', () => {
    const script = fileURLToPath(new URL('../fixtures/forgotten-threaded-transport.mjs', import.meta.url));
    // Without the unref, the thread's keep-alive connection would hold the process until the timeout kills it.
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.error).toBeUndefined();
    expect(child.signal).toBeNull();
    expect(child.stdout).toBe('answered\n');
    expect(child.status).toBe(0);
  });
});
