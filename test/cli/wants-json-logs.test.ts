/** Whether a failure before parsing prints as a JSON line: read from argv and the environment. */
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { LOGGING_COMMANDS, wantsJsonLogs } from '../../src/cli/wants-json-logs.js';

describe('wantsJsonLogs', () => {
  it('reads --log-format in both spellings, for the commands that log', () => {
    expect(wantsJsonLogs(['run', 'demo', '--log-format', 'json'], {})).toBe(true);
    expect(wantsJsonLogs(['run', 'demo', '--log-format=json'], {})).toBe(true);
    expect(wantsJsonLogs(['compact', '--output', 'out', '--log-format', 'json'], {})).toBe(true);
    expect(wantsJsonLogs(['worker', '--log-format=json'], {})).toBe(true);
    expect(wantsJsonLogs(['migrate', '--log-format', 'pretty'], {})).toBe(false);
    expect(wantsJsonLogs(['run', 'demo'], {})).toBe(false);
    // A command without a log keeps the pair a person reads.
    expect(wantsJsonLogs(['validate', 'demo', '--log-format', 'json'], {})).toBe(false);
    expect(wantsJsonLogs([], {})).toBe(false);
  });

  it('finds the command after options before it, with their values, as the parser does', () => {
    expect(wantsJsonLogs(['--log-format', 'json', 'run', 'pipelines/demo.yaml'], {})).toBe(true);
    expect(wantsJsonLogs(['--output', 'out', 'compact', '--log-format=json'], {})).toBe(true);
    expect(wantsJsonLogs(['--log-format', 'json', 'validate', 'demo'], {})).toBe(false);
  });

  it('takes QUOTELAKE_LOG_FORMAT when the command line names no format, which wins over it', () => {
    expect(wantsJsonLogs(['run', 'demo'], { QUOTELAKE_LOG_FORMAT: ' JSON ' })).toBe(true);
    expect(wantsJsonLogs(['run', 'demo', '--log-format', 'pretty'], { QUOTELAKE_LOG_FORMAT: 'json' })).toBe(false);
    expect(wantsJsonLogs(['inspect', 'out'], { QUOTELAKE_LOG_FORMAT: 'json' })).toBe(false);
  });

  it('knows exactly the commands whose options include --log-format', () => {
    const taking = COMMANDS.filter((c) => {
      const built = typeof c.builder === 'function' ? c.builder(yargs([])) : yargs([]).options(c.builder ?? {});
      // yargs' parser state; its types leave getOptions out.
      return 'log-format' in (built as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
    }).map((c) => String(c.command).split(' ')[0]);
    expect(taking.sort()).toEqual([...LOGGING_COMMANDS].sort());
  });
});
