/**
 * One word as a POSIX shell reads it back: as it is when it holds only characters no shell treats
 * specially, else in single quotes (a quote inside written as '\''). For the command lines we print
 * to be pasted: next steps, the command of a bug report.
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./…-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
