/**
 * `run --full-refresh` asks first, like `state reset`: it makes the run fetch everything from
 * `since` again (requests and quota), and the saved checkpoints are replaced as it commits. A
 * pipeline without checkpoints (a first run, NDJSON to stdout) has nothing to lose: no question.
 */
import { hideBin } from 'yargs/helpers';
import { redactUrl } from '../core/redact.js';
import { shellWord } from '../core/shell-word.js';
import { CheckpointStore } from '../runtime/checkpoint-store.js';
import { keepsState } from '../runtime/keeps-state.js';
import { savedCheckpoints } from '../runtime/saved-checkpoints.js';
import { stateResetCommand } from '../runtime/state-reset-command.js';
import { confirm } from './confirm.js';
import { withCommandState } from './lake-location.js';
import type { PipelineJob } from './pipeline-job.js';
import { registry } from './registry.js';
import type { Terminal } from './terminal.js';

export async function confirmFullRefresh(jobs: readonly PipelineJob[], args: { pipeline: string[]; yes?: boolean | undefined; 's3-endpoint'?: string | undefined }, terminal: Terminal): Promise<boolean> {
  const lines: string[] = [];
  for (const job of jobs) {
    if (!keepsState(job.pipeline, registry)) continue;
    const { outputDir, stateDir } = job.resolved.settings;
    const saved = await withCommandState(outputDir, stateDir, process.env, (state) => savedCheckpoints(new CheckpointStore(state, job.pipeline.name, undefined, undefined, stateResetCommand(job.pipeline.name, outputDir, stateDir, args['s3-endpoint'])), true), { s3Endpoint: args['s3-endpoint'] });
    if (saved.damaged !== undefined) lines.push(`  ${job.pipeline.name}: a damaged checkpoint file, replaced whole by the first commit (${saved.damaged.message})`);
    else if (saved.committed.size > 0) lines.push(`  ${job.pipeline.name}: ${saved.committed.size} checkpoint(s) saved under ${job.resolved.settings.stateDir}`);
  }
  if (lines.length === 0) return true;
  terminal.err(
    [
      'quotelake: --full-refresh fetches everything from since again; the checkpoint of each stream it fetches is replaced as it commits:',
      ...lines,
      'Data files are kept and merged by key (no duplicates); until a stream is committed its old checkpoint stays, so a stopped run loses nothing.',
    ].join('\n'),
  );
  // The command as typed (its output, window and service included): `run <pipeline> --full-refresh`
  // alone would refresh the default output with the default window. A token given as a flag is
  // masked where the message is printed, as everything printed is; a URL's password here.
  return confirm('Run a full refresh?', { yes: args.yes === true, command: `quotelake ${hideBin(process.argv).map(withoutPassword).map(shellWord).join(' ')}` });
}

/** `--coordinator redis://:pw@host` (or `--coordinator=…`) as `redis://:***@host`. */
function withoutPassword(word: string): string {
  const at = word.indexOf('://');
  if (at < 0) return word;
  const eq = word.startsWith('--') ? word.indexOf('=') : -1;
  return eq > 0 && eq < at ? `${word.slice(0, eq + 1)}${redactUrl(word.slice(eq + 1))}` : redactUrl(word);
}
