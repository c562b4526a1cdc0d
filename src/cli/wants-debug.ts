/** --log-level debug asked for, read from argv itself: the answer is needed before (or without) parsing. */
export function wantsDebug(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--log-level=debug' || (a === '--log-level' && argv[i + 1] === 'debug'));
}
