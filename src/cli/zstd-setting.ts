/**
 * QUOTELAKE_ZSTD checked before any command runs: a wrong value, or the native codec asked for
 * where it does not load, is a usage error (exit 2) naming the fix, not a failure deep inside the
 * encode worker that loads the codec. Not for `--help` or `--version`: a user whose setting is
 * wrong can still read how to set it.
 */
import { ZSTD_ENV, zstdCodecAsked } from '../lake/parquet/direct/zstd-codec.js';
import { loadNativeZstd, NATIVE_MISSING } from '../lake/parquet/direct/zstd-native.js';
import { commandWord } from './command-word.js';
import { UsageError } from './usage-error.js';

/** What to do when the addon asked for does not load (the command's --help says nothing of it). */
export const NATIVE_MISSING_HINT = `unset ${ZSTD_ENV} (WebAssembly serves where the addon does not load), or reinstall with optional dependencies (npm ci, without --omit=optional)`;

/** `loadNative`: the addon's loader (a test gives one that finds no addon). */
export function checkZstdSetting(env: NodeJS.ProcessEnv, loadNative: typeof loadNativeZstd = loadNativeZstd): void {
  let asked;
  try {
    asked = zstdCodecAsked(env[ZSTD_ENV]);
  } catch (error) {
    throw new UsageError((error as Error).message, `unset ${ZSTD_ENV}: the native codec serves where it loads, WebAssembly elsewhere`);
  }
  if (asked === 'native' && loadNative() === undefined) throw new UsageError(NATIVE_MISSING, NATIVE_MISSING_HINT);
}

/**
 * Whether the command line does more than print help, the version or shell completion (then the
 * codec is checked). `completion` and the words a Tab asks for never touch a Parquet file, and the
 * shell hides the error a Tab would meet: completion would stop without a word said.
 */
export function usesZstd(argv: readonly string[]): boolean {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-V' || a === '--get-yargs-completions')) return false;
  const command = commandWord(argv);
  return command !== 'help' && command !== 'completion';
}
