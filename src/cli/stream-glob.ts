/**
 * `--stream` patterns: `*` any run of characters (`/` included), `?` one character, everything else
 * literal, case-sensitive. A pattern selects a stream when it matches its whole key
 * (`kline/BTCUSDT/1m`) or the key after its dataset (`BTCUSDT/1m`), so `BTC*` picks every BTC series
 * and `*\/1m` every 1-minute one. Hand-written: the only glob library in node_modules (picomatch)
 * comes with the test runner, not as a dependency of ours, and these two wildcards are all a stream
 * key needs.
 */
import { UsageError } from './usage-error.js';

function toRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/** A test over stream keys; no pattern selects every stream. */
export function streamMatcher(globs: readonly string[] | undefined): (stream: string) => boolean {
  if (globs === undefined || globs.length === 0) return () => true;
  const res = globs.map(toRegExp);
  return (stream) => {
    const slash = stream.indexOf('/');
    const tail = slash >= 0 ? stream.slice(slash + 1) : undefined;
    return res.some((re) => re.test(stream) || (tail !== undefined && re.test(tail)));
  };
}

/**
 * `--stream` as given: a flag left without its glob (`--stream $GLOB` with the variable unset) must
 * not read as "no --stream", which selects every stream and lets `state reset --yes` forget them all.
 */
export function checkStreamGlobs(globs: readonly string[] | undefined): void {
  if (globs === undefined) return;
  const hint = "quote the glob (--stream 'BTC*'), and check that the variable it comes from is set";
  if (globs.length === 0) throw new UsageError('--stream needs a glob: given without one it would select every stream', hint);
  if (globs.some((g) => g === '')) throw new UsageError('--stream "": an empty glob matches no stream', hint);
}
