/**
 * The `--output` of a lake as a command a message names must be typed to reach it: a lake on a
 * store of its own (MinIO, R2, ...) needs its endpoint too, or the pasted command looks for the
 * bucket on AWS (or finds no region).
 */
import { shellWord } from './shell-word.js';

export function lakeArgs(root: string, endpoint?: string): string {
  return `--output ${shellWord(root)}${endpoint === undefined ? '' : ` --s3-endpoint ${shellWord(endpoint)}`}`;
}
