/** The one line of a failure main's own error handler could not report: one line, tokens masked. */
import { describe, expect, it } from 'vitest';
import { lastResortLine } from '../../src/cli/last-resort.js';

const NOW = new Date('2026-11-20T00:00:00Z');

describe('lastResortLine', () => {
  it('is the message on one line, masked of the --token and environment tokens', () => {
    const error = new Error('failed at tok-flag-aaaa1111 and\n  tok-env-bbbb2222');
    const line = lastResortLine(error, ['run', 'x', '--token', ' tok-flag-aaaa1111 '], { QUOTELAKE_TOKEN: 'tok-env-bbbb2222' }, NOW);
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^quotelake: failed at \S+ and \S+$/);
    expect(line).not.toContain('aaaa1111');
    expect(line).not.toContain('bbbb2222');
  });

  it('masks --token=VALUE and a pool of QUOTELAKE_TOKENS', () => {
    const line = lastResortLine(new Error('tok-one-cccc3333 tok-two-dddd4444'), ['run', 'x', '--token=tok-one-cccc3333'], { QUOTELAKE_TOKENS: 'tok-two-dddd4444:professional' }, NOW);
    expect(line).not.toMatch(/cccc3333|dddd4444/);
  });

  it('is a JSON line of event error where JSON logs were asked for', () => {
    const line = lastResortLine(new TypeError('no writer'), ['run', 'x', '--log-format=json'], {}, NOW);
    expect(JSON.parse(line)).toEqual({ level: 'error', time: '2026-11-20T00:00:00.000Z', event: 'error', code: 'QL_INTERNAL', err: { type: 'TypeError', message: 'no writer' }, msg: 'no writer' });
  });

  it('says something for a thrown value without a message', () => {
    expect(lastResortLine(new Error(''), ['list'], {}, NOW)).toBe('quotelake: an error without a message');
    expect(lastResortLine('plain text', ['list'], {}, NOW)).toBe('quotelake: plain text');
  });
});
