import type { Argv, CommandModule } from 'yargs';

export const listCommand: CommandModule<object, { json: boolean }> = {
  command: 'list',
  describe: 'List pipelines by name: local ones (./pipelines) and the shipped ones, with their descriptions',
  builder: (y: Argv<object>) =>
    y
      .option('json', { type: 'boolean', default: false, describe: 'One JSON document on stdout' })
      .example('$0 list', 'Names to give "quotelake run <name>"')
      .epilogue('A local pipeline of the same name wins over a shipped one.') as unknown as Argv<{ json: boolean }>,
  handler: async (args) => {
    const { listAction } = await import('../actions/list.js');
    process.exitCode = await listAction(args);
  },
};
