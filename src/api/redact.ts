/**
 * The token must never leave the process in text: every message, log line, dump and printed URL
 * goes through these helpers.
 */

/** `abcd…` (first 4 characters and an ellipsis); short tokens show only the ellipsis. */
export function redactToken(token: string): string {
  return token.length > 8 ? `${token.slice(0, 4)}…` : '…';
}

/** A URL with the value of its `token` query parameter redacted; other parameters unchanged. */
export function redactUrl(url: string | URL): string {
  const text = String(url);
  return text.replace(/([?&]token=)([^&#]*)/g, (_m, key: string, value: string) => {
    let token = value;
    try {
      token = decodeURIComponent(value);
    } catch {
      // keep the raw value: it is redacted either way
    }
    return `${key}${encodeURIComponent(redactToken(token))}`;
  });
}

/** Any text with every occurrence of the token (raw and URL-encoded) replaced by its redaction. */
export function redactText(text: string, token: string): string {
  if (token.length === 0) return text;
  const masked = redactToken(token);
  let out = text.split(token).join(masked);
  const encoded = encodeURIComponent(token);
  if (encoded !== token) out = out.split(encoded).join(masked);
  return out;
}
