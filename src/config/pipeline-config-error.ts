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
  /** Every problem, one per line, each with its position. */
  describeAll(): string {
    return this.problems
      .map((p) => `${this.file ?? '<pipeline>'}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}: ${p.message}`)
      .join('\n');
  }
}
