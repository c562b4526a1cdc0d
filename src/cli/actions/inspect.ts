/** `quotelake inspect`: loaded only when the command runs. */
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { inspectOutput } from '../inspect/inspect-output.js';
import { renderInspect } from '../inspect/render-inspect.js';
import { packageVersion } from '../package-version.js';
import { createTerminal } from '../terminal.js';
import { UsageError } from '../usage-error.js';

export interface InspectArgs {
  output: string;
  'state-dir'?: string | undefined;
  runs: number;
  json: boolean;
}

export async function inspectAction(args: InspectArgs): Promise<number> {
    const terminal = createTerminal();
    if (!Number.isInteger(args.runs) || args.runs < 0) throw new UsageError(`--runs must be a whole number, got ${String(args.runs)}`);
    const stateDir = args['state-dir'] ?? `${args.output.replace(/\/+$/, '')}/.state`;
    let info;
    try {
      info = await inspectOutput(args.output, stateDir, args.runs);
    } catch (e) {
      throw new UsageError((e as Error).message, 'give the output folder of a run, e.g. "quotelake inspect output"');
    }
    if (args.json) terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'inspect', ...info }, null, 2)}\n`);
    else terminal.out(`${renderInspect(info)}\n`);
    return info.datasets.some((d) => d.problems.length > 0) ? EXIT_FAILURE : EXIT_OK;
}
