/** What the CLI says and returns for the Delta log's errors (exit-codes.ts, describe-error.ts). */
import { describe, expect, it } from 'vitest';
import { DeltaConflictError, deltaConflictHint, DeltaLogError } from '../../src/core/errors.js';
import { describeError } from '../../src/cli/describe-error.js';
import { EXIT_FAILURE, EXIT_QUOTA, EXIT_TABLE_CONFLICT, worstExitCode } from '../../src/cli/exit-codes.js';
import { parseRetention } from '../../src/cli/actions/vacuum.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('Delta errors at the command line', () => {
  it('a conflict, or lost races, is exit 5 with "run again"; a damaged log is exit 1 with what to restore', () => {
    const conflict = describeError(new DeltaConflictError('kline', 7, ['interval=1m/year=2026/date=2026-11-21/part-r1-00001.parquet']));
    expect(conflict).toMatchObject({ exitCode: EXIT_TABLE_CONFLICT, code: 'QL_DELTA_CONFLICT' });
    expect(conflict.message).toContain('kline: Delta version 7 already removed interval=1m/year=2026/date=2026-11-21/part-r1-00001.parquet');
    expect(conflict.hint).toMatch(/run the same command again and it resumes/);
    const races = describeError(new DeltaLogError('lost the race for a Delta version 10 times in a row (last tried 12)', 'kline', { retryable: true }));
    expect(races).toMatchObject({ exitCode: EXIT_TABLE_CONFLICT, code: 'QL_DELTA_LOG' });
    const broken = describeError(new DeltaLogError('version 3 is missing from the log (replaying to 5)', 'trade'));
    expect(broken).toMatchObject({ exitCode: EXIT_FAILURE, code: 'QL_DELTA_LOG', message: 'trade: version 3 is missing from the log (replaying to 5)' });
    expect(broken.hint).toMatch(/restore the missing or damaged log file/);
  });

  it('the hint\'s repair command names the output the error was raised on, quoted for a shell; a placeholder only where none is known', () => {
    const paths = ['interval=1m/year=2026/date=2026-11-21/part-r1-00001.parquet'];
    expect(describeError(new DeltaConflictError('kline', 7, paths, undefined, '/data/my lake')).hint).toContain(`"quotelake repair --output '/data/my lake' --dry-run" shows where`);
    expect(describeError(new DeltaConflictError('kline', 7, ['protocol'], 'writer version 7', 's3://bucket/lake')).hint).toContain('"quotelake repair --output s3://bucket/lake --dry-run"');
    expect(describeError(new DeltaLogError('lost the race for a Delta version 10 times in a row (last tried 12)', 'kline', { retryable: true, hint: deltaConflictHint('/data/lake') })).hint).toContain(
      '"quotelake repair --output /data/lake --dry-run"',
    );
    expect(describeError(new DeltaConflictError('kline', 7, paths)).hint).toContain('"quotelake repair --output <output> --dry-run"');
    expect(describeError(new DeltaLogError('lost the race for a Delta version 10 times in a row (last tried 12)', 'kline', { retryable: true })).hint).toContain('--output <output>');
  });

  it('exit 5 ranks above the quota and below a failure among several pipelines', () => {
    expect(worstExitCode([EXIT_QUOTA, EXIT_TABLE_CONFLICT])).toBe(EXIT_TABLE_CONFLICT);
    expect(worstExitCode([EXIT_TABLE_CONFLICT, EXIT_FAILURE])).toBe(EXIT_FAILURE);
  });

  it('vacuum retentions: a number and a unit', () => {
    expect(parseRetention('168h')).toBe(7 * 86_400_000);
    expect(parseRetention('7d')).toBe(7 * 86_400_000);
    expect(parseRetention('30m')).toBe(1_800_000);
    expect(parseRetention('0h')).toBe(0);
    expect(() => parseRetention('1.5h')).toThrow(UsageError);
    expect(() => parseRetention('week')).toThrow(/is not a duration/);
  });
});
