/**
 * The schema of an output root as a pipeline names it (`options.outputDir`, or `sink.output`): a
 * folder, or `s3://bucket/prefix`. A bad URL, or a URL of another scheme, fails at its line, before
 * any request.
 */
import { z } from 'zod';
import { foreignUrlProblem, isS3Url, s3UrlProblem } from './s3-url.js';

export const outputSetting = z
  .string()
  .min(1)
  .superRefine((v, ctx) => {
    const problem = isS3Url(v) ? s3UrlProblem(v) : foreignUrlProblem(v);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

export const SINK_OUTPUT_DESCRIPTION = 'Output root of this sink: a folder, or s3://bucket/prefix (the same setting as options.outputDir; give one of the two).';
