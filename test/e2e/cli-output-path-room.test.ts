/**
 * A local --output too deep for the lake's own files under it (PATH_MAX) is refused before the run
 * makes or probes it and before any request: it used to fail at its first staged file, exit 2, after
 * the requests were spent, and the same way on every run.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCAL_LAKE_RESERVE_BYTES } from '../../src/lake/local-path-room.js';
import { runCli, tempDir } from './helpers/cli.js';
import { pathOf } from './helpers/deep-path.js';

describe.runIf(process.platform === 'linux')('a local output too deep for the lake', () => {
  it('is exit 2 before any request, naming the limit and the longest output that fits; nothing is made', async () => {
    const most = 4095 - LOCAL_LAKE_RESERVE_BYTES - 1;
    const out = pathOf(tempDir('ql-deep-'), most + 1);
    // Nothing listens on port 9: a request would be exit 1 (connection refused), not this refusal.
    const r = await runCli(['run', 'kline-backfill', '--output', out, '--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--json']);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as { runs: { requestsTotal: number; error: { code: string; message: string; hint: string } }[] };
    expect(doc.runs[0]!.requestsTotal).toBe(0);
    expect(doc.runs[0]!.error).toMatchObject({
      code: 'QL_OUTPUT_MISSING',
      message: `output ${out}: its path is ${most + 1} bytes long, and a path on this system has at most 4095 bytes (PATH_MAX 4096), which leaves ${4095 - most - 2} for quotelake's own files under it; they need up to ${LOCAL_LAKE_RESERVE_BYTES}`,
      hint: `choose an --output of at most ${most} bytes as an absolute path (1 fewer); nothing was sent or written`,
    });
    expect(existsSync(out)).toBe(false);
  }, 30_000);
});
