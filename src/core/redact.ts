/**
 * The one redaction of secrets (the API token) in text: every message, log line, dump and printed
 * URL goes through here, whichever layer prints it.
 *
 * A secret of LONG_SECRET characters or more is masked wherever it appears, raw or URL-encoded:
 * nothing else can plausibly contain it, and a token glued to other text (`%3D<token>`, a header
 * dump) must not slip through. A shorter one (`--token x`) is masked only where it stands whole,
 * so "unexpected" stays readable: not inside a longer run of letters, digits, `_` or `-`; a `%XX`
 * escape counts as a separator (`token%3Dx` is masked).
 */

/** From this length on, a secret is masked wherever it appears. */
export const LONG_SECRET = 8;

/** `abcd…` (first 4 characters and an ellipsis); tokens of LONG_SECRET characters or fewer show only the ellipsis. */
export function redactToken(token: string): string {
  return token.length > LONG_SECRET ? `${token.slice(0, 4)}…` : '…';
}

/**
 * A URL with its credentials redacted: the password of `user:password@` (or a lone `secret@`, as a
 * Redis URL may carry one), the value of its `token` query parameter (and of `password`/`pass`); the rest unchanged. Text
 * without a `scheme://` loses everything before its last `@`. An `s3://` URL loses its user too:
 * there it is an AWS access key id, half of the credentials.
 */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function redactUrl(url: string | URL): string {
  const raw = String(url);
  const text = SCHEME.test(raw)
    ? raw.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^@/?#]*)@/, (_m, scheme: string, auth: string) => {
        const colon = auth.indexOf(':');
        return `${scheme}${colon >= 0 && scheme.toLowerCase() !== 's3://' ? `${auth.slice(0, colon)}:***` : '***'}@`;
      })
    : // Not a URL (`redis//:pw@host`, `user:pw@host`): where its credentials end cannot be told, so all before the `@` goes.
      raw.replace(/^[^?#]*@/, '***@');
  // A Redis URL's `?password=` (as ioredis reads it) is a credential too: masked whole.
  const masked = text.replace(/([?&#](?:password|pass)=)([^&#]*)/gi, '$1***');
  // Any case (`TOKEN=`), and in a fragment too (`#token=`): whatever a service or a proxy reads as the token.
  return masked.replace(/([?&#]token=)([^&#]*)/gi, (_m, key: string, value: string) => {
    let token = value;
    try {
      token = decodeURIComponent(value);
    } catch {
      // keep the raw value: it is redacted either way
    }
    return `${key}${encodeURIComponent(redactToken(token))}`;
  });
}

const WORD = /[A-Za-z0-9_-]/;
const ESCAPE_BEFORE = /%[0-9A-Fa-f]{2}$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regular expression source matching `form` literally, except that the hex digits of its `%XX`
 * escapes match in either case (`%7e` is `%7E`: a service or proxy that echoes a URL may normalise them).
 */
function formPattern(form: string): string {
  return escapeRegExp(form).replace(/%([0-9A-F])([0-9A-F])/g, (_m, a: string, b: string) => `%${hexDigit(a)}${hexDigit(b)}`);
}

function hexDigit(d: string): string {
  return /[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d;
}

/** Every whole occurrence of `needle` (a regular expression source; see the file comment) replaced by `masked`. */
function replaceWhole(text: string, needle: string, long: boolean, masked: string): string {
  const pattern = new RegExp(needle, 'g');
  if (long) return text.replace(pattern, () => masked);
  return text.replace(pattern, (match: string, offset: number) => {
    const before = text[offset - 1];
    const after = text[offset + match.length];
    const startsWhole = before === undefined || !WORD.test(before) || ESCAPE_BEFORE.test(text.slice(Math.max(0, offset - 3), offset));
    const endsWhole = after === undefined || !WORD.test(after);
    return startsWhole && endsWhole ? masked : match;
  });
}

/**
 * The URL-encoded forms a token takes on the wire or in an echo of it: `encodeURIComponent`'s, the
 * form encoding of URLSearchParams (a blank as `+`; `!'()~` escaped), and RFC 3986's strict one
 * (`!'()*~` escaped too).
 */
function encodedForms(token: string): string[] {
  const component = encodeURIComponent(token);
  const form = new URLSearchParams({ t: token }).toString().slice(2);
  const strict = component.replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [...new Set([component, form, strict])].filter((f) => f !== token);
}

/** Any text with every occurrence of the token (raw and URL-encoded) replaced by its redaction. */
export function redactText(text: string, token: string): string {
  if (token.length === 0 || text.length === 0) return text;
  const masked = redactToken(token);
  const long = token.length >= LONG_SECRET;
  let out = replaceWhole(text, escapeRegExp(token), long, masked);
  for (const form of encodedForms(token)) out = replaceWhole(out, formPattern(form), long, masked);
  return out;
}

/** `redactText` for several secrets, longest first so a secret that contains another is masked whole. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of [...new Set(secrets)].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) out = redactText(out, s);
  return out;
}
