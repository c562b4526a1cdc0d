/** `quotelake schema`: loaded only when the command runs. */
import { pipelineJsonSchemaText } from '../../config/pipeline-json-schema.js';
import { EXIT_OK } from '../exit-codes.js';
import { registry } from '../registry.js';

export async function schemaAction(_args: object): Promise<number> {
    process.stdout.write(pipelineJsonSchemaText(registry));
    return EXIT_OK;
}
