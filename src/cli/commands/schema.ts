import type { Argv, CommandModule } from 'yargs';

export const schemaCommand: CommandModule<object, object> = {
  command: 'schema',
  describe: 'Print the JSON Schema of pipeline files (for editors and CI)',
  builder: (y: Argv<object>) =>
    y
      .example('$0 schema > pipeline.schema.json', 'Save it; then start a YAML pipeline with "# yaml-language-server: $schema=./pipeline.schema.json"')
      .epilogue('The schema is generated from the same definitions the CLI validates with.'),
  handler: async (args) => {
    const { schemaAction } = await import('../actions/schema.js');
    process.exitCode = await schemaAction(args);
  },
};
