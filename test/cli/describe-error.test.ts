import { describe, expect, it } from 'vitest';
import { bugHint, describeError, formatError, formatErrorDetails, redactedCommand } from '../../src/cli/describe-error.js';
import { packageVersion } from '../../src/lake/package-version.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT_CLOSED, EXIT_QUOTA, EXIT_REJECTED, EXIT_USAGE, worstExitCode } from '../../src/cli/exit-codes.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { parsePipelineYaml } from '../../src/config/parse-pipeline.js';
import { registry } from '../../src/cli/registry.js';
import { AbortedError, ApiError, ConfigError, OutputClosedError, QuotaExhaustedError, QuotelakeError, ResponseShapeError, S3LocationError, SinkError, TransportError } from '../../src/core/errors.js';

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
      [new S3LocationError('s3://Bad_Bucket', 'a bucket name has only lowercase letters'), EXIT_USAGE, /s3:\/\/bucket\/prefix/],
      [new Error('boom'), EXIT_FAILURE, /bug/],
    ];
    for (const [error, code, hint] of cases) {
      const d = describeError(error);
      expect(d.exitCode, String(error)).toBe(code);
      if (hint) expect(d.hint).toMatch(hint);
    }
    expect(formatError(describeError(new ConfigError('wrong', { file: 'p.yaml', line: 3, column: 7 })))).toMatch(/^quotelake: p\.yaml:3:7: wrong\n  hint: /);
  });

  it('too many open files: loading quotelake\'s own code is exit 2 (the limit must be raised); a run\'s own files stay QL_TOO_MANY_FILES, exit 1', () => {
    const emfile = (stack: string) => Object.assign(new Error('EMFILE: too many open files, open \'/srv/x\''), { code: 'EMFILE', syscall: 'open', path: '/srv/x', stack });
    const loading = describeError(emfile('Error: EMFILE\n    at async open (node:internal/fs/promises:637:25)\n    at async getSource (node:internal/modules/esm/load:48:14)'));
    expect(loading).toEqual({
      exitCode: EXIT_USAGE,
      code: 'QL_TOO_MANY_FILES',
      message: 'EMFILE: too many open files to load quotelake itself: raise the open-file limit (ulimit -n, e.g. ulimit -n 1024) and run the command again',
    });
    const writing = describeError(emfile('Error: EMFILE\n    at async open (node:internal/fs/promises:637:25)\n    at async writePart (file:///srv/dist/lake/part.js:3:1)'));
    expect({ exitCode: writing.exitCode, code: writing.code }).toEqual({ exitCode: EXIT_FAILURE, code: 'QL_TOO_MANY_FILES' });
  });

  it('a lost lease: the hint says a new run stops while another holds the lake (it never waits for it)', () => {
    const d = describeError(new QuotelakeError('QL_LAKE_LEASE_LOST', 'run r1 lost the lease s3://lake/p/_quotelake/lock: run r2 (pid 7 on b) holds it now; it stops before its next commit', { stage: 'commit' }));
    expect(d.exitCode).toBe(EXIT_FAILURE);
    expect(d.hint).toBe(
      'this run no longer holds the lake (the message says why), so it committed nothing more; committed work is kept: run the same command again once the run holding the lake has ended (while its lease is live a new run stops at once with QL_OUTPUT_LOCKED; an expired lease is taken over), and it resumes',
    );
  });

  it('every error of the service or the lake has its hint line: HTTP statuses, shapes, damaged files, the rest', () => {
    const http = (httpStatus: number) => new ApiError({ httpStatus, serviceMessage: '', endpoint: '/quote-b-api/kline', codes: ['BTCUSDT'], retryable: false });
    expect(http(302).message).toBe('/quote-b-api/kline: HTTP 302 for BTCUSDT');
    expect(describeError(http(302)).hint).toMatch(/redirect, which quotelake does not follow/);
    expect(describeError(http(404)).hint).toMatch(/nothing answers this path at the base URL/);
    expect(describeError(http(403)).hint).toMatch(/QUOTELAKE_TOKEN/);
    expect(describeError(new ApiError({ ret: 400, serviceMessage: 'bad', endpoint: '/quote-b-api/kline', retryable: false })).hint).toMatch(/check the base URL, the token and the codes/);
    expect(describeError(new ResponseShapeError('/quote-b-api/kline', 'data: expected object')).hint).toMatch(/market-data service itself/);
    expect(describeError(new SinkError('kline: x.parquet cannot be read', 'commit', undefined, 'restore it')).hint).toBe('restore it');
    expect(describeError(new SinkError('kline: something else', 'commit')).hint).toMatch(/^committed work is kept/);
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
    // The chain's problem too (no parse-decimals before the Parquet sink), beside the others.
    expect(d.message).toMatch(/^3 problems in the pipeline:\np\.yaml:1:7: .*\np\.yaml:5:15: .*\np\.yaml:7:3: sink: parquet takes parsed K-lines/);
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

/** A Node error as the runtime makes it: code, syscall, and path or address. */
function nodeError(code: string, fields: Record<string, unknown>, message = `${code}: something`): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, ...fields });
}

describe('errors of the environment', () => {
  it('get their own code, name the path or address, and say the fix; usage-like ones exit 2', () => {
    const cases: [unknown, string, number, RegExp, RegExp][] = [
      [nodeError('EACCES', { syscall: 'open', path: '/srv/lake/x.parquet' }), 'QL_OUTPUT_DENIED', EXIT_USAGE, /cannot open \/srv\/lake\/x\.parquet \(EACCES\)/, /write access to \/srv\/lake\/x\.parquet/],
      [nodeError('EROFS', { syscall: 'mkdir', path: '/mnt/ro/out' }), 'QL_OUTPUT_DENIED', EXIT_USAGE, /\/mnt\/ro\/out is on a read-only file system/, /writable file system/],
      [nodeError('ENOTDIR', { syscall: 'mkdir', path: '/tmp/file/out' }), 'QL_OUTPUT_MISSING', EXIT_USAGE, /\/tmp\/file\/out: a part of this path is a file/, /parents are folders/],
      [nodeError('ELOOP', { syscall: 'mkdir', path: '/srv/loop/out' }), 'QL_OUTPUT_MISSING', EXIT_USAGE, /\/srv\/loop\/out: its symbolic links form a loop \(ELOOP, mkdir\)/, /real folders/],
      [nodeError('ENAMETOOLONG', { syscall: 'mkdir', path: '/srv/a' }), 'QL_OUTPUT_MISSING', EXIT_USAGE, /\/srv\/a: the path is longer than this file system allows/, /shorter --output/],
      [nodeError('EADDRINUSE', { syscall: 'listen', address: '127.0.0.1', port: 8080 }), 'QL_PORT_IN_USE', EXIT_USAGE, /127\.0\.0\.1:8080 is already in use/, /another --port/],
      [nodeError('EACCES', { syscall: 'listen', address: '0.0.0.0', port: 80 }), 'QL_PORT_DENIED', EXIT_USAGE, /listen on 0\.0\.0\.0:80/, /1024/],
      [new TransportError('/quote-b-api/kline', 'request failed', nodeError('ENOTFOUND', { syscall: 'getaddrinfo', hostname: 'api.example.invalid' }), false), 'QL_HOST_UNKNOWN', EXIT_USAGE, /^\/quote-b-api\/kline: host api\.example\.invalid is not known/, /--base-url/],
      [new TransportError('/quote-b-api/kline', 'request failed', nodeError('ECONNREFUSED', { syscall: 'connect', address: '127.0.0.1', port: 9 }), false), 'QL_CONNECTION_REFUSED', EXIT_FAILURE, /^\/quote-b-api\/kline: nothing accepts connections at 127\.0\.0\.1:9/, /service is running/],
      [new TransportError('/quote-b-api/kline', 'request failed', nodeError('CERT_HAS_EXPIRED', {})), 'QL_TLS', EXIT_USAGE, /TLS connection to the service was refused: CERT_HAS_EXPIRED/, /NODE_EXTRA_CA_CERTS/],
    ];
    for (const [error, code, exitCode, message, hint] of cases) {
      const d = describeError(error);
      expect(d, String(error)).toMatchObject({ code, exitCode });
      expect(d.message).toMatch(message);
      expect(d.hint).toMatch(hint);
    }
  });

  it('ENOSPC during a commit: a failure (exit 1) naming the dataset, the file and the code', () => {
    const enospc = nodeError('ENOSPC', { syscall: 'write', path: '/srv/lake/_quotelake/staging/r1/kline.parquet.journal.json' }, 'ENOSPC: no space left on device, write');
    const d = describeError(new SinkError(`kline: commit failed: ${enospc.message}`, 'commit', enospc));
    expect(d).toMatchObject({ code: 'QL_DISK_FULL', exitCode: EXIT_FAILURE });
    expect(d.message).toBe('kline: commit failed: no space left on the device holding /srv/lake/_quotelake/staging/r1/kline.parquet.journal.json (ENOSPC, write)');
    expect(d.hint).toMatch(/free space there .* resumes/);
  });

  it('a missing file that is not a folder to make stays a defect', () => {
    expect(describeError(nodeError('ENOENT', { syscall: 'open', path: '/srv/lake/_quotelake/manifests/kline.parquet.json' })).code).toBe('QL_INTERNAL');
  });

  it('a suspension error that names the token points at the token, not at "try again later"', () => {
    const d = describeError(new ApiError({ code: 'QL_API_TOKEN_INVALID', httpStatus: 500, serviceMessage: 'token invalid', endpoint: '/api/suspension/sse', retryable: false }));
    expect(d.hint).toMatch(/QUOTELAKE_TOKEN/);
    const refused = describeError(new ApiError({ httpStatus: 500, serviceMessage: 'invalid size', endpoint: '/api/suspension/sse', retryable: false }));
    expect(refused.hint).toMatch(/refused this request/);
  });
});

describe('a real defect', () => {
  it('tells how to report it: version, the command with the token masked, the stack', () => {
    const hint = bugHint(['run', 'demo', '--token', 'secret-token-1234', '--output=o']);
    expect(hint).toContain(`quotelake ${packageVersion()}`);
    expect(hint).toContain('(quotelake run demo --token secr… --output=o)');
    expect(hint).not.toContain('secret-token-1234');
    expect(hint).toMatch(/--log-level debug/);
    expect(redactedCommand(['run', '--token=abc', 'a b'])).toBe("quotelake run --token=… 'a b'");
  });

  it('--log-level debug shows the stack and every cause', () => {
    const root = nodeError('EIO', { syscall: 'read' }, 'EIO: i/o error, read');
    const text = formatErrorDetails(new Error('outer', { cause: new SinkError('kline: staging failed', 'write', root) }));
    expect(text).toMatch(/^Error: outer\n\s+at /);
    expect(text).toMatch(/\ncaused by: SinkError: kline: staging failed\n\s+at /);
    expect(text).toMatch(/\ncaused by: Error: EIO: i\/o error, read\n\s+at /);
  });
});
