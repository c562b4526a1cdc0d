/**
 * Text from a file or the service made safe to print: control characters (an ESC that would start a
 * colour, clear the screen or retitle the terminal; a bell; a carriage return that would overwrite the
 * line) become their `\u001b` escapes, as JSON writes them. Line breaks too: each value stays on its line.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
