/** --log-format, else QUOTELAKE_LOG_FORMAT: a mistyped variable is refused with the value meant, as the flag is. */
import { describe, expect, it } from 'vitest';
import { logFormatOf } from '../../src/cli/shared-options.js';
import { UsageError } from '../../src/cli/usage-error.js';

describe('logFormatOf', () => {
  it('the flag wins, then the variable (any case), then pretty', () => {
    expect(logFormatOf({ 'log-format': 'json' }, { QUOTELAKE_LOG_FORMAT: 'pretty' })).toBe('json');
    expect(logFormatOf({}, { QUOTELAKE_LOG_FORMAT: ' JSON ' })).toBe('json');
    expect(logFormatOf({}, {})).toBe('pretty');
  });

  it('a mistyped variable: a usage error naming the value it resembles', () => {
    expect(() => logFormatOf({}, { QUOTELAKE_LOG_FORMAT: 'jsn' })).toThrow(new UsageError('QUOTELAKE_LOG_FORMAT must be pretty or json, not "jsn"; did you mean json?'));
    expect(() => logFormatOf({}, { QUOTELAKE_LOG_FORMAT: 'xml' })).toThrow(new UsageError('QUOTELAKE_LOG_FORMAT must be pretty or json, not "xml"'));
  });
});
