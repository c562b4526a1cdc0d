/**
 * The one rule for control characters in a name a pipeline gives (an output or state folder, a
 * sink's file path, an object key): none of C0 (U+0000-U+001F) nor DEL. Node refuses a NUL in a
 * path only when the file is opened, long after validate said yes, and a line break or tab makes a
 * name that no listing or shell shows as written.
 */
const CONTROL = /[\u0000-\u001f\u007f]/;

const NAMES: Readonly<Record<number, string>> = { 0: 'NUL', 9: 'a tab', 10: 'a line break', 13: 'a carriage return', 27: 'ESC' };

/** `contains a control character (U+000A, a line break)` for the first one in `text`, or undefined. */
export function controlCharacterProblem(text: string): string | undefined {
  const found = CONTROL.exec(text);
  if (found === null) return undefined;
  const code = found[0].charCodeAt(0);
  const name = NAMES[code];
  return `contains a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')}${name === undefined ? '' : `, ${name}`})`;
}
