import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { ConfigError, SinkError } from '../../src/core/errors.js';
import { silentLogger, logsAt, withFields } from '../../src/core/log-helpers.js';
import { redactToken } from '../../src/core/redact.js';
import { createLogger } from '../../src/runtime/logger.js';

const NOW = '2026-11-22T00:00:00Z';

function jsonLogger(options: Parameters<typeof createLogger>[0] = {}) {
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', format: 'json', write: (l) => lines.push(l), clock: new ManualClock(NOW), ...options });
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLogger (pino)', () => {
  it('filters by level and says which levels it writes', () => {
    const { log, lines } = jsonLogger({ level: 'warn' });
    log.debug('hidden');
    log.info('hidden too');
    log.warn('shown');
    log.error('shown too');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown', 'shown too']);
    expect(log.isLevelEnabled('debug')).toBe(false);
    expect(log.isLevelEnabled('warn')).toBe(true);
    expect(logsAt(log, 'info')).toBe(false);
  });

  it('JSON lines: time (ISO UTC of the clock), level by name, msg, bindings, event fields; one line each', () => {
    const { log, lines, parsed } = jsonLogger();
    log.child({ runId: 'r1', pipeline: 'demo' }).info('committed', { event: 'commit', files: 3, rows: 13, big: 12345678901234567890n });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('}\n')).toBe(true);
    expect(parsed()[0]).toEqual({
      time: '2026-11-22T00:00:00.000Z',
      level: 'info',
      msg: 'committed',
      runId: 'r1',
      pipeline: 'demo',
      event: 'commit',
      files: 3,
      rows: 13,
      big: '12345678901234567890',
    });
  });

  it('err carries type, message, code, data, stack and the cause chain', () => {
    const { log, parsed } = jsonLogger();
    const root = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/data/x.parquet' });
    log.error('commit failed', { err: new SinkError('kline: commit failed', 'commit', root) });
    const err = parsed()[0]!.err as Record<string, unknown> & { cause: Record<string, unknown> };
    expect(err).toMatchObject({ type: 'SinkError', message: 'kline: commit failed', code: 'QL_SINK_COMMIT', stage: 'commit' });
    expect(err.stack).toMatch(/^SinkError: kline: commit failed\n\s+at /);
    expect(err.cause).toMatchObject({ type: 'Error', message: 'ENOSPC: no space left on device, write', code: 'ENOSPC', path: '/data/x.parquet' });
    expect(err.cause.stack).toMatch(/^Error: ENOSPC/);
  });

  it('an Error under another key is made readable too', () => {
    const { log, parsed } = jsonLogger();
    log.warn('could not', { error: new ConfigError('bad', { file: 'p.yaml', line: 3 }) });
    expect(parsed()[0]!.error).toMatchObject({ type: 'ConfigError', message: 'p.yaml:3:1: bad', code: 'QL_CONFIG', line: 3 });
  });

  it('redacts the token in the message, every field, the error, its stack and causes', () => {
    const token = 'secret-token-xyz';
    const { log, lines } = jsonLogger({ redact: [token] });
    const cause = new Error(`connect failed for /kline?token=${token}`);
    log.info(`calling with ${token}`, { url: `http://h/?token=${encodeURIComponent(token)}`, headers: { authorization: `Bearer ${token}` }, err: new Error(`boom ${token}`, { cause }) });
    const text = lines.join('');
    expect(text).not.toContain(token);
    expect(text).not.toContain('token-xyz');
    const line = JSON.parse(text) as { msg: string; url: string; headers: { authorization: string }; err: { message: string; stack: string; cause: { message: string } } };
    expect(line.msg).toBe('calling with secr…');
    expect(line.url).toBe('http://h/?token=secr…');
    expect(line.headers.authorization).toBe('Bearer secr…');
    expect(line.err.message).toBe('boom secr…');
    expect(line.err.stack).toMatch(/^Error: boom secr…\n/);
    expect(line.err.cause.message).toBe('connect failed for /kline?token=secr…');
  });

  it('a token with characters JSON escapes is masked in its escaped form too', () => {
    for (const token of ['ab"cd\\efgh-1234', 'abc\\defgh-1234']) {
      const { log, lines } = jsonLogger({ redact: [token] });
      log.info('x', { token });
      expect(lines[0]).not.toContain(JSON.stringify(token).slice(1, -1));
      expect((JSON.parse(lines[0]!) as { token: string }).token).toBe(`${token.slice(0, 4)}…`);
    }
  });

  it('a one-character token is masked only as a whole token (not every "x" of every word)', () => {
    const { log, parsed } = jsonLogger({ redact: ['x'] });
    log.error('unexpected exit', { url: '/kline?token=x&q=1', token: 'x', note: 'max 5 xs' });
    expect(parsed()[0]).toMatchObject({ msg: 'unexpected exit', url: '/kline?token=…&q=1', token: '…', note: 'max 5 xs' });
  });

  it('pretty lines: time, level, message and fields on one line; the stack of err below it', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', write: (l) => lines.push(l), clock: new ManualClock(0), redact: ['secret-token-xyz'] }).child({ runId: 'r1' });
    log.warn('slow down', { endpoint: '/kline', note: 'two words' });
    expect(lines).toEqual(['[1970-01-01T00:00:00.000Z] WARN: slow down {"endpoint":"/kline","note":"two words"}\n']);
    log.debug('failed', { err: new Error('oops secret-token-xyz', { cause: new Error('inner') }) });
    expect(lines[1]).toMatch(/^\[1970-01-01T00:00:00.000Z\] DEBUG: failed\s*\n\s+err: \{/);
    expect(lines[1]).toContain('"message": "oops secr…"');
    expect(lines[1]).toMatch(/Error: oops secr…\n\s+at /);
    expect(lines[1]).toContain('"message": "inner"');
    expect(lines.join('')).not.toContain('secret-token-xyz');
  });

  it('pretty lines name the pipeline only when asked (several pipelines in one command); JSON lines are unchanged', () => {
    const lines: string[] = [];
    const at = (showPipeline: boolean, format: 'pretty' | 'json' = 'pretty') =>
      createLogger({ level: 'info', format, showPipeline, write: (l) => lines.push(l), clock: new ManualClock(0) }).child({ runId: 'r1', pipeline: 'kline-backfill' });
    at(false).info('committed', { files: 2 });
    at(true).info('committed', { files: 2 });
    // A line without a pipeline (the CLI's own) stays as it was.
    createLogger({ level: 'info', showPipeline: true, write: (l) => lines.push(l), clock: new ManualClock(0) }).info('hello');
    at(true, 'json').info('committed', { files: 2 });
    at(false, 'json').info('committed', { files: 2 });
    expect(lines.slice(0, 3)).toEqual([
      '[1970-01-01T00:00:00.000Z] INFO: committed {"files":2}\n',
      '[1970-01-01T00:00:00.000Z] INFO: kline-backfill: committed {"files":2}\n',
      '[1970-01-01T00:00:00.000Z] INFO: hello\n',
    ]);
    expect(lines[3]).toBe(lines[4]);
    expect(JSON.parse(lines[3]!)).toEqual({ level: 'info', time: '1970-01-01T00:00:00.000Z', runId: 'r1', pipeline: 'kline-backfill', files: 2, msg: 'committed' });
  });

  it('colour only when asked', () => {
    const plain: string[] = [];
    const coloured: string[] = [];
    createLogger({ write: (l) => plain.push(l), clock: new ManualClock(0) }).info('hi');
    createLogger({ write: (l) => coloured.push(l), clock: new ManualClock(0), color: true }).info('hi');
    expect(plain[0]).not.toContain('\u001b[');
    expect(coloured[0]).toContain('\u001b[');
  });

  it('a level or format it does not know is a QL_CONFIG naming it, not pino\'s bare Error or pretty lines for a misspelt json', () => {
    const refused = (options: Record<string, unknown>) => {
      try {
        createLogger(options as Parameters<typeof createLogger>[0]);
        return 'no error';
      } catch (e) {
        return e;
      }
    };
    expect(refused({ level: 'verbose' })).toMatchObject({ code: 'QL_CONFIG', message: 'createLogger: level "verbose" is not one of debug, info, warn, error' });
    expect(refused({ level: 'fatal' })).toMatchObject({ code: 'QL_CONFIG', message: 'createLogger: level "fatal" is not one of debug, info, warn, error' });
    expect(refused({ format: 'jsonl' })).toMatchObject({ code: 'QL_CONFIG', message: 'createLogger: format "jsonl" is not one of pretty, json' });
    expect(refused({ level: 'verbose' })).toBeInstanceOf(ConfigError);
    // Any case of a level it knows is that level.
    const { log, lines } = jsonLogger({ level: 'WARN' as 'warn' });
    log.info('hidden');
    log.warn('shown');
    expect(log.level).toBe('warn');
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['shown']);
  });

  it('the logger masks with the one redaction (core/redact.ts)', () => {
    expect(redactToken('abcdefghijk')).toBe('abcd…');
    expect(redactToken('x')).toBe('…');
  });
});

describe('log helpers for the layers below the runtime', () => {
  it('silentLogger writes nothing and says so', () => {
    expect(logsAt(silentLogger, 'error')).toBe(false);
    expect(() => silentLogger.error('x', { a: 1 })).not.toThrow();
  });

  it('withFields adds fields to a logger without child(); a plain logger counts as writing every level', () => {
    const seen: unknown[] = [];
    const plain = { debug: () => undefined, info: (m: string, f?: Record<string, unknown>) => seen.push([m, f]), warn: () => undefined, error: () => undefined };
    withFields(plain, { runId: 'r1' }).info('hi', { n: 1 });
    expect(seen).toEqual([['hi', { runId: 'r1', n: 1 }]]);
    expect(logsAt(plain, 'debug')).toBe(true);
  });
});
