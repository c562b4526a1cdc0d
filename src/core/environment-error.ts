/**
 * Which Node errors are the environment's, and what they say to the user. A Node error carries
 * `code` (EACCES, ENOSPC, ECONNREFUSED...), `syscall`, and `path` or `address`/`port`/`hostname`;
 * this turns the first such error in a cause chain into an EnvironmentError that names the path or
 * address and the fix, keeping the whole original chain as its cause.
 */
import { dirname } from 'node:path';
import { isTempFile } from './atomic-write.js';
import { EnvironmentError, QuotelakeError, TransportError, type ErrorStage } from './errors.js';

interface NodeErrorFields {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  dest?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  cause?: unknown;
  message?: unknown;
  /** A timeout's wait and the setting that chose it (the HTTP transport's connect timeout). */
  waitedMs?: unknown;
  setting?: unknown;
}

/** Certificate and TLS failures (OpenSSL's codes as Node reports them). */
const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The answer to a TLS hello was not TLS (OpenSSL's words for reading plain HTTP as a record). */
const PLAIN_HTTP_ANSWER = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

/** A handshake that took too long is the network's, not a refusal: it may pass when sent again. */
const TLS_SLOW = 'ERR_TLS_HANDSHAKE_TIMEOUT';

const isTlsRefusal = (code: string): boolean => code !== TLS_SLOW && (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'));

/**
 * Whether a request that failed with this Node error code may succeed if sent again: not when the
 * host name does not resolve (ENOTFOUND) or the TLS connection was refused (a certificate), which
 * exit 2 as QL_HOST_UNKNOWN and QL_TLS: every attempt meets the same answer. A DNS server that
 * did not answer in time (EAI_AGAIN) may answer the next one.
 */
export function networkCodeMayPass(code: string): boolean {
  return code !== 'ENOTFOUND' && !isTlsRefusal(code);
}

/** Codes whose fix is a change to the command or the machine: running again unchanged will fail again. */
export const ENVIRONMENT_USAGE_CODES: ReadonlySet<string> = new Set([
  'QL_OUTPUT_DENIED',
  'QL_OUTPUT_MISSING',
  'QL_OUTPUT_UNSUPPORTED',
  'QL_PORT_IN_USE',
  'QL_PORT_DENIED',
  'QL_HOST_UNKNOWN',
  'QL_TLS',
  // A Redis coordinator that refuses the password or the database of its URL (api/redis/redis-refusal.ts).
  'QL_COORDINATOR_REFUSED',
  // The object store's answers (src/lake/storage/s3-error.ts): fixed by credentials, policy or the URL.
  'QL_S3_ACCESS_DENIED',
  'QL_S3_CREDENTIALS',
  'QL_S3_NO_BUCKET',
  'QL_S3_REGION',
]);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function networkTarget(e: NodeErrorFields): string {
  const host = str(e.hostname) ?? str(e.address);
  const port = typeof e.port === 'number' || typeof e.port === 'string' ? `:${e.port}` : '';
  return host ? `${host}${port}` : 'the service';
}

/**
 * The options a fix tells the user to change. By default the run's: a path is the output's or the
 * state folder's (a --state-dir of its own), so the fix names both; a listener is `serve`'s. A
 * command whose path or listener is another option's (the metrics textfile, the metrics endpoint)
 * names that one instead.
 */
export interface FixOptions {
  /** With its article: "an --output (or --state-dir)". */
  readonly path: string;
  readonly port: string;
  readonly host: string;
}

const RUN_OPTIONS: FixOptions = { path: 'an --output (or --state-dir)', port: '--port', host: '--host' };

/** "an --output (or --state-dir)" without its article, for "another …" and "a shorter …". */
const bare = (path: string): string => path.replace(/^an? /, '');

/** What one Node error means for the user, or undefined when it is not the environment's. */
interface Classified {
  readonly code: string;
  readonly message: string;
  readonly target: string;
  readonly fix: string;
}

function classifyOne(e: NodeErrorFields, flags: FixOptions): Classified | undefined {
  const folder = bare(flags.path);
  const code = str(e.code);
  if (!code) return undefined;
  const syscall = str(e.syscall) ?? 'access';
  const path = str(e.path) ?? str(e.dest);
  const listening = syscall === 'listen' || syscall === 'bind';
  // A temp file is written beside its target and never seen by the user: its folder is what they fix.
  const where = path !== undefined && isTempFile(path) ? dirname(path) : (path ?? 'a file under the output');
  const writingIn = path !== undefined && isTempFile(path);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      if (listening) {
        const target = networkTarget(e);
        return { code: 'QL_PORT_DENIED', target, message: `not allowed to listen on ${target} (${code})`, fix: `ports below 1024 need privileges: choose ${flags.port} 1024 or above (0 picks a free one)` };
      }
      // A folder that cannot be made needs write access to its parent; a file, to itself; a temp file, to its folder.
      return {
        code: 'QL_OUTPUT_DENIED',
        target: where,
        message: writingIn ? `permission denied: cannot write a file in ${where} (${code}, ${syscall})` : `permission denied: cannot ${syscall} ${where} (${code})`,
        fix: `give this user write access to ${syscall === 'mkdir' && path ? dirname(path) : where}, or choose another ${folder}`,
      };
    case 'EROFS':
      return { code: 'QL_OUTPUT_DENIED', target: where, message: `${where} is on a read-only file system (EROFS, ${syscall})`, fix: `choose ${flags.path} on a writable file system` };
    case 'ENOSPC':
    case 'EDQUOT':
      return {
        code: 'QL_DISK_FULL',
        target: where,
        message: `no space left on the device holding ${where} (${code}, ${syscall})`,
        fix: `free space there (or choose another ${folder}) and run the same command again: committed work is kept and the run resumes`,
      };
    case 'EFBIG':
      // The process's file-size limit (ulimit -f) or the file system's largest file: to the user, a full disk.
      return {
        code: 'QL_DISK_FULL',
        target: where,
        message: `${where} reached the largest file this process may write (EFBIG, ${syscall}: the file-size limit, ulimit -f, or the file system's)`,
        fix: `raise the file-size limit (ulimit -f; systemd LimitFSIZE) or choose another ${folder}, and run the same command again: committed work is kept and the run resumes`,
      };
    case 'ENOTDIR':
      return { code: 'QL_OUTPUT_MISSING', target: where, message: `${where}: a part of this path is a file, not a folder (ENOTDIR, ${syscall})`, fix: `choose ${flags.path} whose parents are folders, not files` };
    case 'EISDIR': {
      // A file to be written (renamed over) is a folder: the folder is the rename's destination.
      const folderPath = str(e.dest) ?? where;
      return {
        code: 'QL_OUTPUT_MISSING',
        target: folderPath,
        message: `${folderPath} is a folder, where a file is ${syscall === 'read' ? 'read' : 'written'} (EISDIR, ${syscall})`,
        fix: `name a file, not a folder: choose another ${folder}`,
      };
    }
    case 'ELOOP':
      return { code: 'QL_OUTPUT_MISSING', target: where, message: `${where}: its symbolic links form a loop (ELOOP, ${syscall})`, fix: `point the links of this path at real folders, or choose another ${folder}` };
    case 'ENAMETOOLONG':
      return { code: 'QL_OUTPUT_MISSING', target: where, message: `${where}: the path is longer than this file system allows (ENAMETOOLONG, ${syscall})`, fix: `choose a shorter ${folder}` };
    case 'ENOENT':
      // Only a folder that could not be made: a file quotelake expected and did not find is a defect.
      if (syscall !== 'mkdir') return undefined;
      return { code: 'QL_OUTPUT_MISSING', target: where, message: `${where}: the folder cannot be created here (ENOENT, mkdir)`, fix: `choose ${flags.path} on a regular file system whose parent folder exists` };
    case 'EMFILE':
    case 'ENFILE':
      return { code: 'QL_TOO_MANY_FILES', target: where, message: `too many open files (${code}, ${syscall} ${where})`, fix: 'raise the open-file limit (ulimit -n) or lower the pipeline\'s concurrency' };
    case 'EADDRINUSE': {
      const target = networkTarget(e);
      return { code: 'QL_PORT_IN_USE', target, message: `${target} is already in use by another process (EADDRINUSE)`, fix: `choose another ${flags.port} (0 picks a free one), or stop the process that holds it` };
    }
    case 'EADDRNOTAVAIL': {
      const target = networkTarget(e);
      return { code: 'QL_PORT_DENIED', target, message: `${target} is not an address of this machine (EADDRNOTAVAIL)`, fix: `choose a ${flags.host} this machine has (127.0.0.1, 0.0.0.0 or one of its interfaces)` };
    }
    case 'EINVAL':
    case 'EAFNOSUPPORT': {
      // Only a listener's: a link-local IPv6 address without its zone (fe80::1), or IPv6 on a machine without it.
      if (!listening) return undefined;
      const target = networkTarget(e);
      return {
        code: 'QL_PORT_DENIED',
        target,
        message: `cannot listen on ${target} (${code}: this machine cannot bind that address)`,
        fix: `choose a ${flags.host} this machine has (127.0.0.1, 0.0.0.0 or one of its interfaces); a link-local IPv6 address needs its zone, as in fe80::1%eth0`,
      };
    }
    case 'ENOTFOUND': {
      const target = str(e.hostname) ?? networkTarget(e);
      return { code: 'QL_HOST_UNKNOWN', target, message: `host ${target} is not known (ENOTFOUND: the name does not resolve)`, fix: 'check the host in --base-url (or QUOTELAKE_BASE_URL) for a typo, and the DNS of this machine' };
    }
    case 'ECONNREFUSED': {
      const target = networkTarget(e);
      return {
        code: 'QL_CONNECTION_REFUSED',
        target,
        message: `nothing accepts connections at ${target} (ECONNREFUSED)`,
        fix: 'check the port in --base-url (or QUOTELAKE_BASE_URL) and that the service is running; committed work is kept and a new run resumes',
      };
    }
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
    case TLS_SLOW:
    case 'UND_ERR_CONNECT_TIMEOUT': {
      const target = networkTarget(e);
      const setting = str(e.setting);
      if (code === 'UND_ERR_CONNECT_TIMEOUT' && typeof e.waitedMs === 'number' && setting !== undefined) {
        // Our own wait: a slow network may only need a longer one, which the user can set.
        return {
          code: 'QL_NETWORK_UNREACHABLE',
          target,
          message: `cannot reach ${target}: not connected within ${e.waitedMs} ms (${setting}; ${code})`,
          fix: `check the network of this machine (and a proxy or firewall) and the base URL, or raise ${setting} in the pipeline (100 to 3600000 ms) for a slow network; then run the same command again: it resumes`,
        };
      }
      return { code: 'QL_NETWORK_UNREACHABLE', target, message: `cannot reach ${target} (${code})`, fix: 'check the network of this machine (and a proxy or firewall), then run the same command again: it resumes' };
    }
    default:
      if (PLAIN_HTTP_ANSWER.has(code)) {
        // What came back is no TLS record at all: most often an https:// URL for a service that
        // speaks plain HTTP, where a certificate, a clock or a CA would be the wrong thing to check.
        const target = networkTarget(e);
        return {
          code: 'QL_TLS',
          target,
          message: `the TLS connection to ${target} was refused: the server did not answer in TLS (${code}); it may serve plain HTTP`,
          fix: 'an https:// URL for a plain-HTTP service: write it with http:// (--base-url or QUOTELAKE_BASE_URL; --s3-endpoint for an S3 store), or give the port that serves TLS',
        };
      }
      if (isTlsRefusal(code)) {
        const target = networkTarget(e);
        return {
          code: 'QL_TLS',
          target,
          message: `the TLS connection to ${target} was refused: ${code}`,
          fix: 'check the host name in --base-url and this machine\'s clock; a private CA goes in NODE_EXTRA_CA_CERTS',
        };
      }
      return undefined;
  }
}

/** The tail a request that failed after several attempts ends its message with (`; after 3 attempts over 0.4 s`). */
const ATTEMPTS_SAID = /; after \d+ attempts over [^;]+$/;

/** The errors of a cause chain, outermost first (at most 10, in case of a cycle). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let e: unknown = error;
  while (e !== undefined && e !== null && chain.length < 10 && !chain.includes(e)) {
    chain.push(e);
    e = (e as NodeErrorFields).cause;
  }
  return chain;
}

/**
 * The EnvironmentError for `error` (itself, or built from the first Node error of its cause chain
 * that the environment explains), or undefined. The outer quotelake error's words (the dataset that
 * failed to commit, the endpoint asked) lead the message.
 */
export function environmentErrorOf(error: unknown, stage: ErrorStage = 'write', flags: FixOptions = RUN_OPTIONS): EnvironmentError | undefined {
  const chain = causeChain(error);
  const found = chain.find((e): e is EnvironmentError => e instanceof EnvironmentError);
  if (found) return found;
  for (const e of chain) {
    if (e === null || typeof e !== 'object') continue;
    const hit = classifyOne(e as NodeErrorFields, flags);
    if (!hit) continue;
    const outer = chain.find((o): o is QuotelakeError => o instanceof QuotelakeError);
    // The outer words without the Node message they may already quote ("kline: commit failed: ENOSPC: ...").
    const inner = `: ${String((e as NodeErrorFields).message ?? '')}`;
    const outerText = outer && outer !== e ? (outer.message.endsWith(inner) ? outer.message.slice(0, -inner.length) : outer.message) : undefined;
    const lead = outer instanceof TransportError ? `${outer.endpoint}: ` : outerText !== undefined ? `${outerText}: ` : '';
    // A request's retries, said at the end of its message, stay said: its own words replace the rest.
    const tail = outer instanceof TransportError ? (ATTEMPTS_SAID.exec(outer.message)?.[0] ?? '') : '';
    return new EnvironmentError(hit.code, `${lead}${hit.message}${tail}`, hit.target, hit.fix, {
      stage: outer?.stage ?? stage,
      cause: error,
    });
  }
  return undefined;
}
