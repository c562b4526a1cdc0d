/**
 * `--output ''` or `--state-dir ''` (an unset shell variable, say): a usage error before anything
 * runs, for every command that takes them. An empty path would otherwise reach the file system as
 * one (`scandir ''`) and end as an internal error.
 */
import { UsageError } from './usage-error.js';

const PATH_OPTIONS = ['output', 'state-dir'] as const;

export function refuseEmptyPaths(args: Record<string, unknown>): true {
  for (const key of PATH_OPTIONS) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() === '') {
      // `inspect` takes the output as an argument, the other commands as --output.
      const what = key === 'output' ? 'the output (--output, or the argument of inspect) is empty: name a folder or an s3://bucket/prefix' : '--state-dir is empty: name a folder';
      throw new UsageError(what, 'leave it out for its default');
    }
  }
  return true;
}
