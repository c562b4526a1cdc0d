/**
 * `quotelake quota` for the single token it is given (--token and --plan) that has sent nothing yet
 * from this state dir: its own line, the whole day left, as a pool's token gets, not only the other
 * tokens' files (or "no quota files").
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T10:00:00Z';
const TOKEN = 'given-token-not-used-yet';

describe('quota of a given token with no quota file yet', () => {
  it('a line of its own: 0 used, the plan\'s limit left, the next UTC midnight; the token redacted', async () => {
    const stateDir = tempDir();
    const args = ['quota', '--state-dir', stateDir, '--token', TOKEN, '--plan', 'premium', '--clock', NOW];
    const [text, json] = await Promise.all([runCli(args), runCli([...args, '--json'])]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('no quota files');
    expect(text.stdout).toMatch(/^ {2}give…\s+0\s+864,000\s+864,000 {2}2026-11-21T00:00:00\.000Z \(UTC midnight\)$/m);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { tokens: { token: string; usedToday: number; limit: number; remaining: number; resetAt: string; updatedAt: null }[] };
    expect(doc.tokens).toEqual([expect.objectContaining({ token: 'give…', usedToday: 0, limit: 864_000, remaining: 864_000, resetAt: '2026-11-21T00:00:00.000Z', updatedAt: null })]);
    expect(text.stdout + text.stderr + json.stdout + json.stderr).not.toContain(TOKEN);
  }, 60_000);
});
