// The backfill bench's environment settings, read once and checked before anything runs: a typo
// (QUOTELAKE_BENCH_RUNS=abc, QUOTELAKE_BENCH_BIG=false) would otherwise end in a stack trace after
// the emulator started, or silently run the ~5M-row backfill the user meant to skip.

/** A wrong setting: bench/run.mjs prints its message and exits 2 before any benchmark runs. */
export class BenchSettingError extends Error {
  name = 'BenchSettingError';
}

const SPAN = /^[1-9][0-9]*[mhdw]$/;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** An unset or empty variable is its default. */
function given(env, name) {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function flag(env, name, fallback, meaning) {
  const value = given(env, name);
  if (value === undefined) return fallback;
  if (value === '0' || value === '1') return value === '1';
  throw new BenchSettingError(`${name} must be 0 or 1 (${meaning}), got ${JSON.stringify(value)}`);
}

export function backfillSettings(env) {
  const runsText = given(env, 'QUOTELAKE_BENCH_RUNS');
  if (runsText !== undefined && !/^[1-9][0-9]*$/.test(runsText)) {
    throw new BenchSettingError(`QUOTELAKE_BENCH_RUNS must be a whole number of runs, 1 or more, got ${JSON.stringify(runsText)}`);
  }
  const bigSpan = given(env, 'QUOTELAKE_BENCH_BIG_SPAN') ?? '414d';
  if (!SPAN.test(bigSpan) && !DATE.test(bigSpan)) {
    throw new BenchSettingError(`QUOTELAKE_BENCH_BIG_SPAN must be a span such as 414d, 60w or 9000h, or a date YYYY-MM-DD, got ${JSON.stringify(bigSpan)}`);
  }
  return {
    runs: runsText === undefined ? 3 : Number(runsText),
    big: flag(env, 'QUOTELAKE_BENCH_BIG', true, '0 skips the long span'),
    bigSpan,
    keep: flag(env, 'QUOTELAKE_BENCH_KEEP', false, '1 keeps the scratch folder'),
  };
}
