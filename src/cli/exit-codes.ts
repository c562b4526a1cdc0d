/**
 * Exit codes of the quotelake CLI: stable, documented in the README (Exit codes), meant for schedulers.
 * 75 is EX_TEMPFAIL of sysexits.h: "try again later", which is exactly a used-up daily quota.
 */
export const EXIT_OK = 0;
/** The run failed (service, network, sink, internal error). */
export const EXIT_FAILURE = 1;
/** Wrong command line or pipeline file (file:line:column in the message). */
export const EXIT_USAGE = 2;
/** The run finished, but rejected records were dropped or diverted to `<output>/_rejected/`. */
export const EXIT_REJECTED = 3;
/**
 * The run finished, but the service delivered less than asked for in a way no retry mended (a
 * stock's newest page stayed short, for one); the notes name each series. Rerun later.
 */
export const EXIT_INCOMPLETE = 4;
/**
 * Another writer changed a Delta table under this commit (QL_DELTA_CONFLICT, or the race for a log
 * version lost again and again): the commit was undone and nothing is lost; run again, it resumes.
 */
export const EXIT_TABLE_CONFLICT = 5;
/** Stopped at the daily quota; completed work is committed and the next run resumes after the reset. */
export const EXIT_QUOTA = 75;
/** Stopped by SIGINT/SIGTERM (128 + SIGINT); completed work is committed. */
export const EXIT_INTERRUPTED = 130;
/**
 * The reader of stdout went away with rows left unwritten (`| head` that stopped early): 128 + SIGPIPE,
 * what a shell reports for a writer killed by the closed pipe, so `set -o pipefail` scripts already
 * know it. A reader that leaves after the last row changes nothing (exit 0).
 */
export const EXIT_OUTPUT_CLOSED = 141;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILURE
  | typeof EXIT_USAGE
  | typeof EXIT_REJECTED
  | typeof EXIT_INCOMPLETE
  | typeof EXIT_TABLE_CONFLICT
  | typeof EXIT_QUOTA
  | typeof EXIT_INTERRUPTED
  | typeof EXIT_OUTPUT_CLOSED;

/** Of several pipelines' codes, the one that says the most: usage > failure > interrupted > output closed > table conflict > quota > incomplete > rejected > ok. */
export function worstExitCode(codes: readonly number[]): number {
  const rank = [EXIT_OK, EXIT_REJECTED, EXIT_INCOMPLETE, EXIT_QUOTA, EXIT_TABLE_CONFLICT, EXIT_OUTPUT_CLOSED, EXIT_INTERRUPTED, EXIT_FAILURE, EXIT_USAGE];
  let worst = EXIT_OK;
  for (const c of codes) if (rank.indexOf(c) > rank.indexOf(worst)) worst = c;
  return worst;
}
