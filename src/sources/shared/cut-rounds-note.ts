/**
 * What a polling run says when rounds it was configured for did not fit `durationSeconds`, and what
 * `quotelake plan` says before it: each round waits for the plan's rate limit, so a round of many
 * requests takes longer than `everySeconds` and pushes the next ones back, past the end.
 */
export function cutRoundsNote(source: string, cut: number, of: number, durationSeconds: number | undefined): string {
  return (
    `${source}: ${cut} of ${of} rounds did not start within durationSeconds ${durationSeconds ?? '?'}: the plan's rate limit made each round longer than everySeconds ` +
    `(\`quotelake plan\` shows a round's requests); raise durationSeconds or everySeconds, or ask for fewer codes`
  );
}

/** The plan's word for the same cut, before the run. */
export function plannedCutRoundsNote(source: string, cut: number, of: number, durationSeconds: number | undefined): string {
  return (
    `${source}: ${cut} of ${of} configured rounds will not start within durationSeconds ${durationSeconds ?? '?'}: the plan's rate limit makes each round longer than everySeconds, ` +
    'so a run takes (and this plan counts) only the rounds that start in time; raise durationSeconds or everySeconds, or ask for fewer codes'
  );
}
