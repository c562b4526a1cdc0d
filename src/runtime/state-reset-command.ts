/**
 * The `quotelake state reset` a hint names, as it must be typed to reach these checkpoints: the
 * pipeline's name alone would look under the default `output/` and reset another lake's streams
 * (or none), so the output, and a state folder that is not the output's own, go with it.
 */
import { stateDirFor } from '../config/resolve-settings.js';
import { shellWord } from '../core/shell-word.js';

export function stateResetCommand(pipeline: string, outputDir: string, stateDir?: string, s3Endpoint?: string): string {
  const parts = ['quotelake state reset', shellWord(pipeline), '--output', shellWord(outputDir)];
  if (stateDir !== undefined && stateDir.replace(/\/+$/, '') !== stateDirFor(outputDir)) parts.push('--state-dir', shellWord(stateDir));
  // A store of its own (MinIO, R2 ...): without its endpoint the command would look for the bucket on AWS.
  if (s3Endpoint !== undefined) parts.push('--s3-endpoint', shellWord(s3Endpoint));
  return parts.join(' ');
}
