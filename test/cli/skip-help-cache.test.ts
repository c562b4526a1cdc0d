/**
 * skipHelpCache: with the installed yargs, an async command's start no longer renders the help
 * text (the hook it replaces is really the one yargs calls), and a failing handler still reaches
 * the `.fail()` callback with its own error.
 */
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { skipHelpCache } from '../../src/cli/skip-help-cache.js';

interface Usage {
  hasCachedHelpMessage(): boolean;
}
const usageOf = (cli: object) => (cli as { getInternalMethods(): { getUsageInstance(): Usage } }).getInternalMethods().getUsageInstance();

function cli(handler: () => Promise<void>, failures: unknown[]) {
  return yargs(['go', '--speed', '3'])
    .command('go', 'an async command', (y) => y.option('speed', { type: 'number', describe: 'how fast' }), handler)
    .fail((_msg, err) => {
      failures.push(err);
      throw err;
    });
}

describe('skipHelpCache', () => {
  it("yargs caches the help as an async command starts; after skipHelpCache it does not", async () => {
    const plain = cli(async () => undefined, []);
    await plain.parseAsync();
    expect(usageOf(plain).hasCachedHelpMessage()).toBe(true);

    const skipped = cli(async () => undefined, []);
    skipHelpCache(skipped);
    await skipped.parseAsync();
    expect(usageOf(skipped).hasCachedHelpMessage()).toBe(false);
  });

  it('a failing handler still reaches the fail callback with its error', async () => {
    const failures: unknown[] = [];
    const boom = new Error('boom');
    const skipped = cli(async () => {
      throw boom;
    }, failures);
    skipHelpCache(skipped);
    await expect(skipped.parseAsync()).rejects.toBe(boom);
    expect(failures).toEqual([boom]);
  });

  it('changes nothing on an object without yargs internals', () => {
    expect(() => skipHelpCache({})).not.toThrow();
  });
});
