/**
 * A YAML pipeline's bytes as text. YAML is UTF-8 here; read any other way, a file saved as UTF-16
 * (PowerShell 5's `>` writes it) became one string and "expected a mapping, got string ...", and a
 * Latin-1 byte (`café`) a U+FFFD that validated and was kept. Each is refused at its place instead.
 */
import { ConfigError } from '../core/errors.js';

const SAVE_AS_UTF8 = 'save the file as UTF-8 (in most editors: "Save with encoding", UTF-8)';

/** The text of `bytes`, or a ConfigError naming `file` and where its bytes stop being UTF-8. */
export function pipelineText(bytes: Uint8Array, file: string): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ConfigError(`the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8: ${SAVE_AS_UTF8}`, { file, line: 1, column: 1 });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // The lenient decoding marks the first bad byte with U+FFFD; before it all is as written.
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const at = lenient.indexOf('\uFFFD');
    const before = lenient.slice(0, at).split('\n');
    const line = before.length;
    const column = before[before.length - 1]!.length + 1;
    throw new ConfigError(`the file is not UTF-8 text: the bytes here are no UTF-8 character (a Latin-1 or Windows-1252 "é" is one such): ${SAVE_AS_UTF8}`, { file, line, column });
  }
}
