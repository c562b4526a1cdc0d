import { describe, expect, it } from 'vitest';
import { describeError, formatError } from '../../src/cli/describe-error.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_REJECTED, EXIT_USAGE, worstExitCode } from '../../src/cli/exit-codes.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { parsePipelineYaml } from '../../src/config/parse-pipeline.js';
import { registry } from '../../src/cli/registry.js';
import { AbortedError, ApiError, ConfigError, OutputClosedError, QuotaExhaustedError, TransportError } from '../../src/core/errors.js';

describe('describeError', () => {
  it('maps every error class to its exit code and a hint', () => {
    const resetAt = new Date('2026-11-23T00:00:00Z');
    const cases: [unknown, number, RegExp | undefined][] = [
      [new UsageError('bad flag', 'do this'), EXIT_USAGE, /do this/],
      [new ConfigError('wrong', { file: 'p.yaml', line: 3, column: 7 }), EXIT_USAGE, /pipeline file/],
      [new QuotaExhaustedError({ resetAt, used: 10, limit: 10 }), EXIT_QUOTA, /after 2026-11-23T00:00:00\.000Z/],
      [new AbortedError(), EXIT_INTERRUPTED, /resume/],
      [new ApiError({ ret: 401, serviceMessage: 'token invalid', endpoint: '/quote-b-api/kline', retryable: false }), EXIT_FAILURE, /QUOTELAKE_TOKEN/],
      [new ApiError({ ret: 604, serviceMessage: 'code unauthorized', endpoint: '/quote-b-api/kline', retryable: false }), EXIT_FAILURE, /plan does not cover/],
      [new TransportError('/quote-b-api/kline', 'connect ECONNREFUSED'), EXIT_FAILURE, /base URL/],
      [new Error('boom'), EXIT_FAILURE, /bug/],
    ];
    for (const [error, code, hint] of cases) {
      const d = describeError(error);
      expect(d.exitCode, String(error)).toBe(code);
      if (hint) expect(d.hint).toMatch(hint);
    }
    expect(formatError(describeError(new ConfigError('wrong', { file: 'p.yaml', line: 3, column: 7 })))).toMatch(/^quotelake: p\.yaml:3:7: wrong\n  hint: /);
  });

  it('lists every problem of a pipeline with its position', () => {
    let error: unknown;
    try {
      parsePipelineYaml('name: Bad Name\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [9m]\nsink:\n  type: parquet\n', { registry, file: 'p.yaml' });
    } catch (e) {
      error = e;
    }
    const d = describeError(error);
    expect(d.exitCode).toBe(EXIT_USAGE);
    expect(d.message).toMatch(/^2 problems in the pipeline:\np\.yaml:1:7: .*\np\.yaml:5:15: /);
  });
});

describe('a closed stdout', () => {
  it('is exit 141 in one line, without a hint', () => {
    const d = describeError(new OutputClosedError('stdout', 12));
    expect(d).toMatchObject({ exitCode: 141, code: 'QL_OUTPUT_CLOSED' });
    expect(formatError(d)).toBe('quotelake: stdout was closed by its reader before 12 row(s) of the current batch were written; the run stopped there');
  });
  it('ranks below an interrupt and above a used-up quota', () => {
    expect(worstExitCode([EXIT_QUOTA, EXIT_OUTPUT_CLOSED])).toBe(EXIT_OUTPUT_CLOSED);
    expect(worstExitCode([EXIT_OUTPUT_CLOSED, EXIT_INTERRUPTED])).toBe(EXIT_INTERRUPTED);
  });
});

describe('worstExitCode', () => {
  it('ranks usage > failure > interrupted > quota > rejected > ok', () => {
    expect(worstExitCode([])).toBe(EXIT_OK);
    expect(worstExitCode([EXIT_OK, EXIT_REJECTED])).toBe(EXIT_REJECTED);
    expect(worstExitCode([EXIT_REJECTED, EXIT_QUOTA, EXIT_OK])).toBe(EXIT_QUOTA);
    expect(worstExitCode([EXIT_QUOTA, EXIT_FAILURE])).toBe(EXIT_FAILURE);
    expect(worstExitCode([EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED])).toBe(EXIT_USAGE);
  });
});
