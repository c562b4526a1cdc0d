/** The JSON log lines of `event` on a command's stderr (`--log-format json`); other lines are skipped. */
export function events(stderr: string, event: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === event);
}
