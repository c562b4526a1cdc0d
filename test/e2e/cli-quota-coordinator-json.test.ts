/**
 * `quota --json --coordinator` with a Redis that does not answer: a script reading stdout gets the
 * failure as a document (`command`, `exitCode`, `error`), as from `run`, `enqueue` and `queue`;
 * stdout used to be empty, with only the stderr lines.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/closed-port.js';
import { runCli, tempDir } from './helpers/cli.js';

describe('quota --json with the coordinator down', () => {
  it('prints the error document on stdout and exits 1 (QL_COORDINATOR_DOWN)', async () => {
    const url = `redis://:s3cretpw@127.0.0.1:${await closedPort()}/0`;
    const r = await runCli(['quota', '--output', join(tempDir('ql-quota-down-'), 'lake'), '--json', '--coordinator', url]);
    expect(r.code, r.stderr).toBe(1);
    const doc = JSON.parse(r.stdout) as { command: string; exitCode: number; error: { code: string; message: string; hint: string } };
    expect(doc).toMatchObject({ command: 'quota', exitCode: 1, error: { code: 'QL_COORDINATOR_DOWN' } });
    expect(doc.error.message).toMatch(/^coordinator redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0 is unreachable/);
    expect(r.stdout + r.stderr).not.toContain('s3cretpw');
    // quota commits nothing: the hint does not tell it that it resumes from its last commit.
    expect(doc.error.hint).toBe('start Redis again (or fix --coordinator / QUOTELAKE_REDIS_URL) and run the same command (a run resumes from its last commit); nothing is sent without the coordinator, so the plan is never exceeded');
  });
});
