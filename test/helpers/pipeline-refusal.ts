/** What validation says of a pipeline file's text: its PipelineConfigError message, '' when it passes. */
import { components } from '../../src/components.js';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';

export function refusalOf(text: string, file: string): string {
  try {
    parsePipelineYaml(text, { registry: components, file });
  } catch (e) {
    if (e instanceof PipelineConfigError) return e.message;
    throw e;
  }
  return '';
}
