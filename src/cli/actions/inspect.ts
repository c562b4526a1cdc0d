/** `quotelake inspect`: loaded only when the command runs. */
import { stat } from 'node:fs/promises';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { inspectOutput } from '../inspect/inspect-output.js';
import { inspectProgress } from '../inspect/inspect-progress.js';
import { renderInspect } from '../inspect/render-inspect.js';
import { packageVersion } from '../../lake/package-version.js';
import { createTerminal } from '../terminal.js';
import { layoutState } from '../../lake/layout/index.js';
import { UsageError } from '../usage-error.js';
import { layout1Refusal } from '../maintained-layout.js';
import { QuotelakeError } from '../../core/errors.js';
import { openOutput } from '../output-storage.js';
import type { LakeStorage } from '../../lake/storage/lake-storage.js';
import { localStorage } from '../../lake/storage/local-storage.js';
import { stateDirFor } from '../../config/resolve-settings.js';
import { stateLocationFor } from '../../runtime/state-location.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';
import { checkRemoteOutput, enclosingLake } from '../lake-location.js';

export interface InspectArgs {
  output: string;
  's3-endpoint'?: string | undefined;
  'state-dir'?: string | undefined;
  runs: number;
  json: boolean;
  coverage: boolean;
}

export async function inspectAction(args: InspectArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (!Number.isInteger(args.runs) || args.runs < 0) throw new UsageError(`--runs must be a whole number from 0, got ${String(args.runs)}`);
  refuseIdleS3Endpoint(args['s3-endpoint'], [args.output]);
  const output = await openOutput(args.output, args['s3-endpoint'], env);
  try {
    return await inspectLake(args, output.storage);
  } finally {
    output.close();
  }
}

const INSPECT_HINT = 'give the output folder of a run, e.g. "quotelake inspect output"';

async function inspectLake(args: InspectArgs, storage: LakeStorage | undefined): Promise<number> {
  const terminal = createTerminal();
  // I5: --state-dir, <output>/.state, or the lake's own _quotelake/state/ on S3.
  const state = stateLocationFor(storage ?? localStorage(args.output), args['state-dir'] ?? stateDirFor(args.output));
  const lake = storage ?? args.output;
  if (storage === undefined) {
    // Before anything is read from it: a file given for the folder is named as such.
    const st = await stat(args.output).catch(() => undefined);
    if (!st?.isDirectory()) throw new UsageError(`${args.output} ${st ? 'is a file, not an output folder' : 'does not exist (no run has written there)'}`, INSPECT_HINT);
    // A folder inside a lake (a dataset's, the state's) would read as an empty lake, exit 0.
    const lakeAbove = await enclosingLake(args.output);
    if (lakeAbove !== undefined) {
      throw new UsageError(`${args.output} is a folder inside the lake ${lakeAbove}, not an output folder`, `give the lake's folder: "quotelake inspect ${lakeAbove}"`);
    }
  } else {
    await checkRemoteOutput(args.output, storage);
  }
  // Inspect only reads: a 0.1.0 lake is named as such rather than shown as empty.
  if ((await layoutState(lake)).version === 1) {
    throw layout1Refusal(args.output);
  }
  let info;
  const progress = inspectProgress(terminal, !args.json);
  try {
    info = await inspectOutput(args.output, state, args.runs, progress.onProgress, storage);
  } catch (e) {
    // A damaged file, a store that refused: said as the command that met it would say it (exit 1).
    if (e instanceof QuotelakeError) throw e;
    throw new UsageError((e as Error).message, INSPECT_HINT);
  } finally {
    progress.stop();
  }
  // Coverage of the kline dataset against the session calendar and the halt dataset, on request:
  // of each format the output holds it in (two pipelines may write K-lines as Parquet and Arrow).
  const klineFormats = info.datasets.filter((d) => d.dataset === 'kline').map((d) => d.format as 'parquet' | 'arrow');
  // Loaded on request only: the calendar and halt matching cost start-up time a plain inspect does not need.
  const coverage = args.coverage ? await import('../../coverage/index.js') : undefined;
  const reports = [];
  for (const format of coverage ? klineFormats : []) reports.push({ format, report: await coverage!.coverageOfOutput(lake, { format }) });
  if (args.json) {
    // `coverage` is the first format's report, as before; `coverageByFormat` has every one.
    const covered = reports.length > 0 ? { coverage: reports[0]!.report, coverageByFormat: Object.fromEntries(reports.map((r) => [r.format, r.report])) } : {};
    terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'inspect', ...info, ...covered }, null, 2)}\n`);
  } else {
    terminal.out(`${renderInspect(info, args.runs)}\n`);
    for (const { format, report } of reports) {
      terminal.out(`${coverage!.formatCoverageReport(report, reports.length > 1 ? { heading: `coverage of kline (${format})` } : {})}\n`);
    }
    if (args.coverage && reports.length === 0) terminal.out('coverage: no kline dataset\n');
  }
  return info.datasets.some((d) => d.problems.length > 0) ? EXIT_FAILURE : EXIT_OK;
}
