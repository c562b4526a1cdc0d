/**
 * QUOTELAKE_ZSTD=native where the addon does not load: exit 2 (a usage error) whose hint says what
 * to do, not "run quotelake run --help", whose help says nothing of the setting. The addon's
 * absence is a loader that finds nothing (the machine running the tests has it).
 */
import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { checkZstdSetting, NATIVE_MISSING_HINT } from '../../src/cli/zstd-setting.js';
import { NATIVE_MISSING } from '../../src/lake/parquet/direct/zstd-native.js';

const noAddon = () => undefined;

describe('QUOTELAKE_ZSTD=native without the addon', () => {
  it('is a usage error naming the setting, with a hint that fixes it', () => {
    let thrown: unknown;
    try {
      checkZstdSetting({ QUOTELAKE_ZSTD: 'native' }, noAddon);
    } catch (e) {
      thrown = e;
    }
    expect(describeError(thrown)).toEqual({ exitCode: 2, code: 'QL_USAGE', message: NATIVE_MISSING, hint: NATIVE_MISSING_HINT });
    expect(NATIVE_MISSING_HINT).toBe('unset QUOTELAKE_ZSTD (WebAssembly serves where the addon does not load), or reinstall with optional dependencies (npm ci, without --omit=optional)');
  });

  it('wasm, or unset, needs no addon', () => {
    expect(() => checkZstdSetting({ QUOTELAKE_ZSTD: 'wasm' }, noAddon)).not.toThrow();
    expect(() => checkZstdSetting({}, noAddon)).not.toThrow();
  });
});
