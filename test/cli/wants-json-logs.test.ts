/** Whether a failure before parsing prints as a JSON line: read from argv and the environment. */
import { describe, expect, it } from 'vitest';
import { wantsJsonLogs } from '../../src/cli/wants-json-logs.js';

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

  it('takes QUOTELAKE_LOG_FORMAT when the command line names no format, which wins over it', () => {
    expect(wantsJsonLogs(['run', 'demo'], { QUOTELAKE_LOG_FORMAT: ' JSON ' })).toBe(true);
    expect(wantsJsonLogs(['run', 'demo', '--log-format', 'pretty'], { QUOTELAKE_LOG_FORMAT: 'json' })).toBe(false);
    expect(wantsJsonLogs(['inspect', 'out'], { QUOTELAKE_LOG_FORMAT: 'json' })).toBe(false);
  });
});
