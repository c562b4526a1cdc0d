/**
 * A settings file's text (YAML, or JSON for a `.json` name) as data. A syntax error says where it
 * is and which rule it breaks, never with an excerpt of the file: the parsers' own messages quote
 * the text around the problem, and a secret (a token) may stand there.
 */
import { parse as parseLosslessJson } from 'lossless-json';
import { LineCounter, parseDocument } from 'yaml';

export type ParsedText = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

/** The position lossless-json finds for a JSON syntax error (V8's message quotes the text around it instead). */
function jsonFaultAt(text: string): string {
  try {
    parseLosslessJson(text);
  } catch (e) {
    const found = /at position (\d+)/.exec((e as Error).message);
    if (found !== null) {
      const lines = text.slice(0, Number(found[1])).split('\n');
      return ` at line ${lines.length}, column ${lines.at(-1)!.length + 1}`;
    }
  }
  return '';
}

/** `problem` reads `not valid JSON at line L, column C` or `not valid YAML at line L, column C: <rule>`. */
export function parseDataText(text: string, json: boolean): ParsedText {
  if (json) {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, problem: `not valid JSON${jsonFaultAt(text)}` };
    }
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = doc.errors[0];
  if (error === undefined) {
    // Valid syntax can still be refused while building the data: an alias bomb ("Excessive alias
    // count ...") throws here, a problem of the file, not of quotelake. Its message quotes nothing.
    try {
      return { ok: true, value: doc.toJS() };
    } catch (e) {
      return { ok: false, problem: `not usable YAML: ${(e as Error).message.split('\n')[0]!}` };
    }
  }
  const pos = lineCounter.linePos(error.pos[0]);
  // yaml's own words name the rule broken (e.g. "Nested mappings are not allowed in compact mappings") and quote nothing.
  return { ok: false, problem: `not valid YAML at line ${pos.line}, column ${pos.col}: ${error.message.split('\n')[0]!}` };
}
