import type { Argv, CommandModule } from 'yargs';
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from '../completion-script.js';

export const completionCommand: CommandModule<object, { shell: CompletionShell }> = {
  command: 'completion <shell>',
  describe: 'Print a shell completion script (commands, options, their values and pipeline names)',
  builder: (y: Argv<object>) =>
    y
      .positional('shell', { choices: COMPLETION_SHELLS, describe: 'The shell to complete in' })
      .example('$0 completion bash >> ~/.bashrc', 'bash: complete in every new shell')
      .example('$0 completion zsh > "${fpath[1]}/_quotelake"', 'zsh: install as a completion function')
      .example('$0 completion fish > ~/.config/fish/completions/quotelake.fish', 'fish')
      .epilogue('The script calls "quotelake" on your PATH for each completion.') as unknown as Argv<{ shell: CompletionShell }>,
  handler: (args) => {
    process.stdout.write(completionScript(args.shell));
  },
};
