#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { COMMANDS } from './commands/index.js';
import { packageVersion } from './package-version.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './usage-error.js';

/** Run the CLI on `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let cli = yargs(argv)
    .scriptName('quotelake')
    .usage('$0 <command> [options]')
    .strict()
    .demandCommand(1, 'Name a command; see --help.')
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  for (const command of COMMANDS) cli = cli.command(command);
  try {
    await cli.parseAsync();
    return EXIT_OK;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`quotelake: ${e.message}\nRun "quotelake --help" for usage.\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`quotelake: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_FAILURE;
  }
}

main(hideBin(process.argv)).then(
  (code) => process.exit(code),
  () => process.exit(EXIT_FAILURE),
);
