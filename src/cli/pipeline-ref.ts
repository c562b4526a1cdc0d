/**
 * A pipeline argument is a path, or the name of a pipeline in `./pipelines/` (local, first) or in
 * the pipelines shipped with quotelake (`quotelake run demo` = `<package>/pipelines/demo.yaml`).
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { didYouMean } from '../core/did-you-mean.js';
import { UsageError } from './usage-error.js';
import { SHIPPED_PIPELINES_DIR } from './package-files.js';

export { SHIPPED_PIPELINES_DIR };

export const PIPELINE_EXTENSIONS = ['.yaml', '.yml', '.ts', '.mts', '.js', '.mjs'] as const;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A folder, or a link to one; false for anything else, a dangling link included. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function byName(dir: string, name: string): string | undefined {
  for (const ext of PIPELINE_EXTENSIONS) {
    const path = join(dir, `${name}${ext}`);
    if (isFile(path)) return path;
  }
  return undefined;
}

/** What stands at `path` when something does but it is not a regular file; undefined when nothing does. */
function notAFile(ref: string, path: string): string | undefined {
  let link;
  try {
    link = lstatSync(path);
  } catch {
    return undefined;
  }
  if (link.isSymbolicLink() && !existsSync(path)) return `${ref} is a link to ${readlinkSync(path)}, which does not exist`;
  const target = link.isSymbolicLink() ? statSync(path) : link;
  const what = target.isDirectory() ? 'a folder' : target.isFIFO() ? 'a named pipe' : target.isSocket() ? 'a socket' : 'a device';
  return `${ref} is ${what}, not a pipeline file`;
}

/**
 * Whether a pipeline can be named without its path (`kline-backfill`, `demo/1-kline-latest`):
 * letters, digits, `_`, `.` and `-`, one folder at most. A file named otherwise runs by its path.
 */
export function runsByName(name: string): boolean {
  return /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/.test(name) && !name.startsWith('.') && !PIPELINE_EXTENSIONS.some((e) => name.endsWith(e));
}

export interface PipelineRef {
  /** The path to load. */
  readonly path: string;
  /** How to show it: relative to cwd when inside it. */
  readonly display: string;
  readonly origin: 'path' | 'local' | 'shipped';
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

export function resolvePipelineRef(ref: string, cwd: string = process.cwd(), shippedDir: string = SHIPPED_PIPELINES_DIR): PipelineRef {
  // An unset shell variable (`quotelake run "$P"`): as a path it would name the current folder.
  if (ref.trim() === '') throw new UsageError('a pipeline argument is empty', 'give a pipeline file\'s path or a shipped pipeline\'s name ("quotelake list" shows them)');
  const asPath = resolve(cwd, ref);
  if (isFile(asPath)) return { path: asPath, display: display(asPath, cwd), origin: 'path' };
  if (runsByName(ref)) {
    const local = byName(join(cwd, 'pipelines'), ref);
    if (local) return { path: local, display: display(local, cwd), origin: 'local' };
    const shipped = byName(shippedDir, ref);
    if (shipped) return { path: shipped, display: display(shipped, cwd), origin: 'shipped' };
  }
  const other = notAFile(ref, asPath);
  if (other !== undefined) {
    throw new UsageError(other, 'give the path of a .yaml file (or a pipeline name: "quotelake list" shows them)');
  }
  const suggestion = suggestPipeline(ref, cwd, shippedDir);
  if (suggestion !== undefined) {
    const what = suggestion.isPath ? 'no pipeline file' : 'no pipeline named';
    throw new UsageError(`${what} ${ref}; did you mean ${suggestion.ref}?`, 'run "quotelake list" to see the pipelines by name, or give a path to a .yaml file');
  }
  throw new UsageError(
    `pipeline "${ref}" not found: it is not a file, nor a pipeline in ./pipelines or among the shipped ones`,
    'run "quotelake list" to see the pipelines by name, or give a path to a .yaml file',
  );
}

/** Names `quotelake run <name>` accepts from a pipelines folder (`kline-backfill`, `demo/1-kline-latest`), sorted. */
export function pipelineNames(dir: string): string[] {
  return pipelineFiles(dir)
    .map((f) => relative(dir, f).slice(0, -extname(f).length).split('\\').join('/'))
    .filter(runsByName);
}

/**
 * The name or path a mistyped reference most likely meant: a name among ./pipelines and the shipped
 * ones, or, for a path, a pipeline file beside it in the folder it names.
 */
function suggestPipeline(ref: string, cwd: string, shippedDir: string): { ref: string; isPath: boolean } | undefined {
  const looksLikePath = ref.includes('/') && (ref.startsWith('.') || ref.startsWith('/') || PIPELINE_EXTENSIONS.some((e) => ref.endsWith(e)));
  // The names of ./pipelines and the shipped ones, read once, and only if asked for.
  let names: Set<string> | undefined;
  const knownNames = () => (names ??= new Set([...pipelineNames(join(cwd, 'pipelines')), ...pipelineNames(shippedDir)]));
  if (!looksLikePath) {
    const byName = didYouMean(ref, knownNames());
    if (byName !== undefined) return { ref: byName, isPath: false };
  }
  // `kline-backfill.yaml` in a folder without it: a pipeline's name with its file's extension.
  const ext = ref.includes('/') ? undefined : PIPELINE_EXTENSIONS.find((e) => ref.endsWith(e));
  const stem = ext === undefined ? ref : ref.slice(0, -ext.length);
  if (ext !== undefined && knownNames().has(stem)) return { ref: stem, isPath: true };
  const dir = dirname(resolve(cwd, ref));
  const file = didYouMean(basename(ref), pipelineFiles(dir, 0).map((f) => basename(f)));
  if (file !== undefined) return { ref: join(dirname(ref), file), isPath: true };
  const byStem = ext === undefined ? undefined : didYouMean(stem, knownNames());
  return byStem === undefined ? undefined : { ref: byStem, isPath: true };
}

/** Pipeline files of a folder and its direct subfolders (`demo/1-kline-latest.yaml`), sorted; [] when it does not exist. */
export function pipelineFiles(dir: string, depth = 1): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const path = join(dir, n);
    if (isFile(path) && PIPELINE_EXTENSIONS.some((e) => n.endsWith(e)) && !n.endsWith('.d.ts')) out.push(path);
  }
  if (depth > 0) {
    for (const n of readdirSync(dir).sort()) {
      const path = join(dir, n);
      if (isFolder(path)) out.push(...pipelineFiles(path, depth - 1));
    }
  }
  return out;
}
