/**
 * The token must never leave the process in text: the one redaction lives in src/core/redact.ts
 * (every layer may import core); the service client's public names stay here.
 */
export { redactText, redactToken, redactUrl } from '../core/redact.js';
