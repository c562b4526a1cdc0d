/**
 * A switch given a value (`serve --limits=on`, `--clock-runs=yes`): yargs reads every text but
 * "true" as false, so `--limits=on` switched the limits off and `--clock-runs=1` froze the clock,
 * with no word. Only `=true` and `=false` are taken; anything else is a usage error naming it.
 */
import { UsageError } from './usage-error.js';

export function checkSwitchValues(args: Record<string, unknown>, argv: readonly string[], switches: readonly string[] = []): true {
  const end = argv.indexOf('--');
  const words = end < 0 ? argv : argv.slice(0, end);
  const command = (args._ as unknown[] | undefined)?.[0];
  const hint = `give --KEY alone to switch it on, --no-KEY to switch it off (or --KEY=true, --KEY=false); run "quotelake ${typeof command === 'string' ? command : '<command>'} --help" for what it takes`;
  for (const key of switches) {
    if (key.length < 2 || /[A-Z]/.test(key)) continue;
    const word = words.find((w) => w.startsWith(`--${key}=`));
    if (word === undefined) continue;
    const text = word.slice(key.length + 3);
    if (text === 'true' || text === 'false') continue;
    throw new UsageError(`--${key} is a switch: it takes no value, or true or false, got ${JSON.stringify(text)}`, hint.replaceAll('KEY', key));
  }
  return true;
}
