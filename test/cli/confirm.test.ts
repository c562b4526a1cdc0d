/** The y/N question of `state reset` and `run --full-refresh`, with a fake terminal on stdin. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirm } from '../../src/cli/confirm.js';
import { UsageError } from '../../src/cli/usage-error.js';

function terminal(answer: string | undefined, isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY });
  const output = new PassThrough();
  let asked = '';
  output.on('data', (d: Buffer) => (asked += d.toString()));
  if (answer !== undefined) setImmediate(() => input.write(`${answer}\n`));
  return { input, output, asked: () => asked };
}

describe('confirm', () => {
  it('asks y/N on a terminal: only y or yes confirms', async () => {
    for (const [answer, ok] of [['y', true], ['YES', true], [' y ', true], ['n', false], ['', false], ['sure', false]] as const) {
      const t = terminal(answer);
      expect(await confirm('Reset these checkpoints?', { yes: false, command: 'quotelake state reset', input: t.input, output: t.output }), answer).toBe(ok);
      expect(t.asked()).toBe('Reset these checkpoints? [y/N] ');
    }
  });

  it('end of input at the question (Ctrl-D) is a no, not a command left waiting', async () => {
    const t = terminal(undefined);
    setImmediate(() => t.input.end());
    expect(await confirm('Reset these checkpoints?', { yes: false, command: 'quotelake state reset', input: t.input, output: t.output })).toBe(false);
    expect(t.asked()).toBe('Reset these checkpoints? [y/N] \n');
  });

  it('--yes confirms without asking', async () => {
    const t = terminal(undefined, false);
    expect(await confirm('Reset?', { yes: true, command: 'quotelake state reset', input: t.input, output: t.output })).toBe(true);
    expect(t.asked()).toBe('');
  });

  it('without a terminal and without --yes: a usage error naming --yes', async () => {
    const t = terminal('y', false);
    const refused = confirm('Reset?', { yes: false, command: "quotelake state reset --stream 'BTC*'", input: t.input, output: t.output });
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toMatchObject({ hint: "add --yes to confirm it in a script: quotelake state reset --stream 'BTC*' --yes" });
    expect(t.asked()).toBe('');
  });
});
