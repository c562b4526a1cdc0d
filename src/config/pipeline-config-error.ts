/**
 * The error of a pipeline file with problems, each at its file:line:column. Its own module, apart
 * from the parser, so that code which only recognises it (the CLI's error reporting, loaded by every
 * command, completions included) does not load the schema library with it.
 */
import { ConfigError } from '../core/errors.js';

export interface ConfigProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * Problems of one file printed at most: enough to fix in one sitting, while a generated file with
 * 200,000 repeated codes once printed 27 MB of them.
 */
export const SHOWN_PROBLEMS = 50;

/** Thrown with every problem of a pipeline; `message` is the first, `problems` has them all. */
export class PipelineConfigError extends ConfigError {
  readonly problems: readonly ConfigProblem[];
  constructor(file: string | undefined, problems: readonly ConfigProblem[]) {
    const first = problems[0] ?? { message: 'invalid pipeline' };
    const where: { file?: string; line?: number; column?: number } = {};
    if (file !== undefined) where.file = file;
    if (first.line !== undefined) where.line = first.line;
    if (first.column !== undefined) where.column = first.column;
    super(first.message, where);
    this.problems = problems;
  }
  /** The first SHOWN_PROBLEMS problems, one per line, each with its position; then how many more there are. */
  describeAll(): string {
    const file = this.file ?? '<pipeline>';
    const lines = this.problems.slice(0, SHOWN_PROBLEMS).map((p) => `${file}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}: ${p.message}`);
    const more = this.moreProblems();
    return (more === undefined ? lines : [...lines, more]).join('\n');
  }

  /** The first SHOWN_PROBLEMS messages without positions (`; `-joined by the CLI), then how many more. */
  shownMessages(): string[] {
    const messages = this.problems.slice(0, SHOWN_PROBLEMS).map((p) => p.message);
    const more = this.moreProblems();
    return more === undefined ? messages : [...messages, more];
  }

  /** `… and N more problems in <file>` past the shown ones, or undefined. */
  private moreProblems(): string | undefined {
    const more = this.problems.length - SHOWN_PROBLEMS;
    if (more <= 0) return undefined;
    return `… and ${more} more problem${more === 1 ? '' : 's'} in ${this.file ?? 'the pipeline'}`;
  }
}
