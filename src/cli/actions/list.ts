/** `quotelake list`: loaded only when the command runs. */
import { readFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { parseDocument } from 'yaml';
import { printable } from '../../core/printable.js';
import { firstCommentLine } from '../../config/parse-pipeline.js';
import { pipelineText } from '../../config/pipeline-text.js';
import { ConfigError } from '../../core/errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { packageVersion } from '../../lake/package-version.js';
import { PIPELINE_EXTENSIONS, pipelineFiles, runsByName, SHIPPED_PIPELINES_DIR } from '../pipeline-ref.js';
import { createTerminal } from '../terminal.js';

export interface ListedPipeline {
  readonly name: string;
  readonly origin: 'local' | 'shipped';
  readonly file: string;
  readonly description: string;
  /** Shadowed by a local pipeline of the same name (the local one runs). */
  readonly shadowed: boolean;
}

/**
 * `description`, else the first comment line; '' when neither (or the file is not YAML). The text is
 * read as validate reads it: a file that is not UTF-8 is told with the place of its first bad byte,
 * never shown with the U+FFFD a lenient read puts there.
 */
export async function describePipelineFile(path: string): Promise<string> {
  const ext = extname(path);
  if (ext !== '.yaml' && ext !== '.yml') return '(TypeScript/JavaScript pipeline)';
  let text: string;
  try {
    text = pipelineText(await readFile(path), path);
  } catch (e) {
    if (e instanceof ConfigError && e.line !== undefined) return `(not UTF-8 text at line ${e.line}, column ${e.column ?? 1}: save the file as UTF-8)`;
    return '(unreadable)';
  }
  try {
    const doc = parseDocument(text);
    const d = doc.get('description');
    if (typeof d === 'string' && d.trim() !== '') return d.trim();
    return firstCommentLine(doc);
  } catch {
    return '(unreadable)';
  }
}

/** Where a file's extension stands in the order a name is looked up in. */
const extRank = (file: string) => PIPELINE_EXTENSIONS.findIndex((e) => file.endsWith(e));

export async function listPipelines(cwd: string = process.cwd(), shippedDir: string = SHIPPED_PIPELINES_DIR): Promise<ListedPipeline[]> {
  const out: ListedPipeline[] = [];
  const localDir = join(cwd, 'pipelines');
  const nameOf = (dir: string, file: string) => relative(dir, file).slice(0, -extname(file).length).split('\\').join('/');
  const local = pipelineFiles(localDir);
  const localNames = new Set(local.map((f) => nameOf(localDir, f)));
  const sameDir = join(cwd, 'pipelines/') === shippedDir;
  // Of `x.yaml` and `x.js` side by side, the name runs the first of PIPELINE_EXTENSIONS (as run finds it).
  const runsAs = (name: string, file: string) =>
    local.filter((f) => nameOf(localDir, f) === name).sort((a, b) => extRank(a) - extRank(b))[0] === file;
  for (const file of local) {
    const name = nameOf(localDir, file);
    // A file whose name is not a pipeline name (`a b.yaml`), or that its name does not run, runs by its path: list it so.
    out.push({ name: runsByName(name) && runsAs(name, file) ? name : relative(cwd, file), origin: sameDir ? 'shipped' : 'local', file: relative(cwd, file), description: await describePipelineFile(file), shadowed: false });
  }
  if (!sameDir) {
    for (const file of pipelineFiles(shippedDir)) {
      const name = nameOf(shippedDir, file);
      out.push({ name, origin: 'shipped', file, description: await describePipelineFile(file), shadowed: localNames.has(name) });
    }
  }
  return out;
}

export async function listAction(args: { json: boolean }): Promise<number> {
    const terminal = createTerminal();
    const items = await listPipelines();
    if (args.json) {
      terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'list', pipelines: items }, null, 2)}\n`);
    } else if (items.length === 0) {
      terminal.out('quotelake: no pipelines found (none in ./pipelines, none shipped)\n');
    } else {
      const width = Math.max(...items.map((i) => printable(i.name).length));
      const lines: string[] = [];
      for (const origin of ['local', 'shipped'] as const) {
        const group = items.filter((i) => i.origin === origin);
        if (group.length === 0) continue;
        lines.push(origin === 'local' ? 'Local pipelines (./pipelines):' : 'Shipped pipelines:');
        // A name or description comes from a file: its control characters are shown, never sent to the terminal.
        for (const i of group) lines.push(`  ${printable(i.name).padEnd(width)}  ${printable(i.description)}${i.shadowed ? '  (hidden by the local one)' : ''}`);
      }
      lines.push('', 'Run one with "quotelake run <name>"; "quotelake plan <name>" shows its cost first.');
      terminal.out(`${lines.join('\n')}\n`);
    }
    return EXIT_OK;
}
