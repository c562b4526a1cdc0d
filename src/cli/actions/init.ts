/** `quotelake init`: writes a commented pipeline that validates; loaded only when the command runs. */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parsePipelineYaml } from '../../config/parse-pipeline.js';
import { PIPELINE_NAME } from '../../config/pipeline-schema.js';
import { pipelineTemplate } from '../../config/pipeline-template.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { confineName } from '../../core/confine-path.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { environmentErrorOf, type FixOptions } from '../../core/environment-error.js';
import { EXIT_OK } from '../exit-codes.js';
import { PIPELINE_SCHEMA_FILE } from '../package-files.js';
import { registry } from '../registry.js';
import { createTerminal } from '../terminal.js';
import { UsageError } from '../usage-error.js';
import { shellWord } from '../../core/shell-word.js';

export interface InitArgs {
  name?: string | undefined;
  source: string;
  sink: string;
  dir: string;
  force: boolean;
}

function typeOf(kind: 'source' | 'sink', given: string): string {
  const types = registry.filter((d) => d.kind === kind).map((d) => d.type);
  if (types.includes(given)) return given;
  const near = didYouMean(given, types);
  throw new UsageError(`unknown ${kind} "${given}"${near === undefined ? '' : `; did you mean ${near}?`}`, `--${kind} is one of ${types.join(', ')}`);
}

/**
 * A name as the pipeline schema wants it (lower case, [a-z0-9-], so it can name files and state),
 * close to `name`: letters without their accents (Ü → u), every other run of characters a dash.
 */
/** A folder init cannot write into is --dir's to change, not a run's --output. */
const INIT_FIX: FixOptions = { path: 'a --dir', port: '--port', host: '--host' };

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // what cannot be looked at fails the write below, which says why
  }
}

export function suggestName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 200) || 'my-pipeline';
}

/**
 * The editor directive's path to the schema: relative to the written file when the command runs in
 * the project that installed quotelake (node_modules/quotelake/… moves with it, so the pair can be
 * committed), from its root or any folder below; absolute for a global install. The project is the
 * folder holding the first node_modules on the schema's path (the checkout itself when there is none).
 */
export function schemaDirectivePath(schemaFile: string, cwd: string, file: string): string {
  const at = schemaFile.split(sep).indexOf('node_modules');
  const project = at > 0 ? schemaFile.split(sep).slice(0, at).join(sep) || sep : dirname(schemaFile);
  const fromProject = relative(project, cwd);
  const inProject = !fromProject.startsWith('..') && !isAbsolute(fromProject);
  return inProject ? relative(dirname(file), schemaFile) : schemaFile;
}

export async function initAction(args: InitArgs, cwd: string = process.cwd()): Promise<number> {
  const terminal = createTerminal();
  const source = typeOf('source', args.source);
  const sink = typeOf('sink', args.sink);
  const name = args.name ?? source;
  // The name becomes a file name and the state's key: refused rather than changed behind the user's back.
  if (!PIPELINE_NAME.test(name) || name.length > 200) {
    throw new UsageError(`pipeline name "${name}" must match [a-z0-9-]+ (at most 200 characters): it names the file and the pipeline's state`, `try "quotelake init ${suggestName(name)}"`);
  }
  // `--dir "$DIR"` with the variable unset would write into the current folder unasked.
  if (args.dir.trim() === '') throw new UsageError('--dir is empty: name the folder to write the pipeline into', 'leave --dir out for ./pipelines, or give --dir . for the current folder');
  const dir = resolve(cwd, args.dir);
  const path = confineName(dir, `${name}.yaml`, 'pipeline file');
  const shown = relative(cwd, path).startsWith('..') ? path : relative(cwd, path);
  const schemaPath = !existsSync(PIPELINE_SCHEMA_FILE) ? undefined : schemaDirectivePath(PIPELINE_SCHEMA_FILE, cwd, path);
  const text = pipelineTemplate(registry, { name, source, sink, schemaPath });
  // What init writes must validate: checked before it lands, so a broken template is a bug report, not a file.
  parsePipelineYaml(text, { registry, file: shown });
  // A folder of that name is no pipeline file to replace: --force could not help.
  if (isFolder(path)) {
    throw new UsageError(`${shown} is a folder; init writes a pipeline file of that name`, 'give another name ("quotelake init <name>") or another --dir');
  }
  try {
    await writeFileAtomic(path, text, { noClobber: !args.force });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(`${shown} exists; init never overwrites a pipeline file`, `pass --force to replace it, or give another name ("quotelake init <name>")`);
    }
    throw environmentErrorOf(e, 'config', INIT_FIX) ?? e;
  }
  const byName = resolve(dir) === resolve(cwd, 'pipelines');
  // The next-steps line is pasted into a shell: a path with blanks or quotes is quoted for it.
  const ref = byName ? name : shellWord(shown);
  terminal.err(`quotelake: wrote ${shown} (pipeline ${name}: source ${source}, sink ${sink})\n  next: quotelake validate ${ref} && quotelake plan ${ref} && quotelake run ${ref}`);
  return EXIT_OK;
}
