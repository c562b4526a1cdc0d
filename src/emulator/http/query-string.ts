/**
 * Strict query-string parsing: unlike URLSearchParams, invalid percent-encoding is reported instead of
 * silently turned into replacement characters, so a mangled `query` gets a clear 400.
 */
export interface ParsedQueryString {
  values: Map<string, string>;
  /** Names whose value was not valid percent-encoded UTF-8, with that value as sent (to name it in an error). */
  invalid: Map<string, string>;
}

export function parseQueryString(text: string): ParsedQueryString {
  const values = new Map<string, string>();
  const invalid = new Map<string, string>();
  if (text === '') return { values, invalid };
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = safeDecode(rawName);
    if (name === undefined || values.has(name) || invalid.has(name)) continue; // first occurrence wins
    const value = safeDecode(rawValue);
    if (value === undefined) invalid.set(name, rawValue);
    else values.set(name, value);
  }
  return { values, invalid };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
