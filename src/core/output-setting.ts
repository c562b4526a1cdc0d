/**
 * The schemas of an output root as a pipeline names it (`options.outputDir`, or `sink.output`): a
 * folder, or `s3://bucket/prefix`; and of its state dir (`options.stateDir`). A bad URL, or a URL of
 * another scheme, fails at its line, before any request.
 */
import * as z from 'zod';
import { controlCharacterProblem } from './control-characters.js';
import { unexpandedPathProblem } from './unexpanded-path.js';
import { foreignUrlProblem, isS3Url, s3UrlProblem } from './s3-url.js';

/** A non-empty path setting without control characters or an unexpanded `~` or `$VAR`, with the problem `problemOf` finds in it as its issue. */
function pathSetting(problemOf: (value: string) => string | undefined) {
  return z
    .string()
    .min(1)
    .superRefine((v, ctx) => {
      const problem = controlCharacterProblem(v) ?? unexpandedPathProblem(v) ?? problemOf(v);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    });
}

export const outputSetting = pathSetting((v) => (isS3Url(v) ? s3UrlProblem(v) : foreignUrlProblem(v)));

/** The state dir: a folder, or an s3:// location as the default for an S3 output is. */
export const stateDirSetting = pathSetting(foreignUrlProblem);

export const SINK_OUTPUT_DESCRIPTION = 'Output root of this sink: a folder, or s3://bucket/prefix (the same setting as options.outputDir; give one of the two).';
