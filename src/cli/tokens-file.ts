/**
 * A secrets file holding a token pool (`--tokens-file`, QUOTELAKE_TOKENS_FILE), e.g.
 * `~/.config/quotelake/tokens.yaml`:
 *
 *   tokens:
 *     - token: "…"
 *       plan: professional
 *
 * (or the list alone; JSON for a `.json` name). It is refused before it is read when it lies inside
 * a project folder (a pipeline's folder or a folder with .git or package.json above the working
 * directory or a pipeline: a file there ends up in a commit or a package), or when anyone other
 * than its owner and group may read or write it.
 */
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { PoolToken } from '../api/index.js';
import { parseDataText } from '../core/data-text.js';
import { tokensFromList } from './token-list.js';
import { UsageError } from './usage-error.js';

const HINT = 'keep the tokens file outside the project, e.g. ~/.config/quotelake/tokens.yaml, readable by you alone (chmod 600)';

/** `~/…` as the shell would expand it (the flag may come quoted, or from the environment). */
export function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** The nearest folder at or above `dir` that holds .git or package.json; undefined if none. */
async function projectRoot(dir: string): Promise<string | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if ((await exists(join(at, '.git'))) || (await exists(join(at, 'package.json')))) return at;
    if (dirname(at) === at) return undefined;
  }
}

function inside(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
}

/**
 * The folders a tokens file must stay out of: the project root above the working directory and
 * above each pipeline file, and each pipeline file's own folder.
 */
export async function projectFolders(cwd: string, pipelineFiles: readonly string[]): Promise<string[]> {
  const folders = new Set<string>();
  for (const dir of [cwd, ...pipelineFiles.map((f) => dirname(resolve(cwd, f)))]) {
    const root = await projectRoot(dir);
    if (root !== undefined) folders.add(await realpath(root).catch(() => root));
  }
  for (const f of pipelineFiles) {
    const dir = dirname(resolve(cwd, f));
    folders.add(await realpath(dir).catch(() => dir));
  }
  return [...folders];
}

/** Reads the pool from `path` after the place and mode checks; `folders` from projectFolders. */
export async function readTokensFile(path: string, folders: readonly string[]): Promise<PoolToken[]> {
  const file = resolve(expandHome(path));
  let real: string;
  let mode: number;
  try {
    real = await realpath(file);
    const info = await stat(real);
    if (!info.isFile()) throw new UsageError(`tokens file ${file} is not a file`, HINT);
    mode = info.mode;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`tokens file ${file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, HINT);
  }
  const project = folders.find((f) => inside(real, f));
  if (project !== undefined) {
    throw new UsageError(`tokens file ${file} is inside the project folder ${project}: a secret there ends up in a commit or a package`, HINT);
  }
  // World bits: anyone on the machine could read the tokens (or swap them).
  if ((mode & 0o006) !== 0) {
    throw new UsageError(`tokens file ${file} can be read or written by every user on this machine (mode ${(mode & 0o777).toString(8).padStart(3, '0')})`, `run: chmod 600 ${file}`);
  }
  const text = await readFile(real, 'utf8');
  // Where it goes wrong and why, never its text (a token could be in it).
  const json = real.toLowerCase().endsWith('.json');
  const parsed = parseDataText(text, json);
  if (!parsed.ok) throw new UsageError(`tokens file ${file} is ${parsed.problem}`, 'fix the file at that place (its text is not printed here: a token could be in it)');
  const raw = parsed.value;
  const list = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'tokens' in raw ? (raw as { tokens: unknown }).tokens : raw;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const extra = Object.keys(raw).filter((k) => k !== 'tokens');
    if (extra.length > 0) throw new UsageError(`tokens file ${file}: unknown key ${extra.map((k) => `"${k}"`).join(', ')} (expected tokens:)`, HINT);
  }
  const shape = json ? 'write each entry as {"token": "…", "plan": "…"}' : 'write each entry as "- token: …" with "plan: …" under it (a colon and a blank after each key; quote a token of digits)';
  return tokensFromList(list, `tokens file ${file}`, shape);
}
