/**
 * Shell completion scripts for `quotelake completion bash|zsh|fish`. Each script asks quotelake
 * itself for the words (`quotelake --get-yargs-completions <words so far>`), so completions follow
 * the installed version: commands, options, option values with choices (--plan, --format,
 * --log-level) and pipeline names. Adapted from yargs' templates, with two changes: the shell is
 * named by the script (SHELL=…) rather than guessed from the login shell, since yargs formats the
 * answer per shell; and fish passes the word under the cursor, even an empty one, as the last word.
 */

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const BASH = `###-begin-quotelake-completions-###
# quotelake completion for bash. Install: quotelake completion bash >> ~/.bashrc
# (or, with bash-completion: quotelake completion bash > ~/.local/share/bash-completion/completions/quotelake)
_quotelake_completions()
{
    local cur_word words
    cur_word="\${COMP_WORDS[COMP_CWORD]}"
    mapfile -t words < <(SHELL=bash quotelake --get-yargs-completions "\${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${words[@]}" )" -- "\${cur_word}")
    return 0
}
# -o default: no match (a path, say) falls back to file names.
complete -o bashdefault -o default -F _quotelake_completions quotelake
###-end-quotelake-completions-###
`;

const ZSH = `#compdef quotelake
###-begin-quotelake-completions-###
# quotelake completion for zsh. Install: quotelake completion zsh > "\${fpath[1]}/_quotelake"
# (or: quotelake completion zsh >> ~/.zshrc, after compinit)
_quotelake_completions()
{
  local reply
  local si=$IFS
  IFS=$'\\n' reply=($(SHELL=zsh quotelake --get-yargs-completions "\${(@)words[1,CURRENT]}" 2>/dev/null))
  IFS=$si
  if [[ \${#reply} -gt 0 ]]; then
    _describe 'values' reply
  else
    _files
  fi
}
if [[ "\${zsh_eval_context[-1]}" == "loadautofunc" ]]; then
  _quotelake_completions "$@"
else
  compdef _quotelake_completions quotelake
fi
###-end-quotelake-completions-###
`;

const FISH = `###-begin-quotelake-completions-###
# quotelake completion for fish. Install: quotelake completion fish > ~/.config/fish/completions/quotelake.fish
function __quotelake_completions
    set -l current (commandline -ct)
    set -l words (env SHELL=fish quotelake --get-yargs-completions (commandline -opc) "$current" 2>/dev/null)
    if test (count $words) -gt 0
        printf '%s\\n' $words
    else
        # Nothing but a path fits here (a pipeline file, an --output folder): file names, as in bash and zsh.
        __fish_complete_path "$current"
    end
end
complete -c quotelake -f -a '(__quotelake_completions)'
###-end-quotelake-completions-###
`;

export function completionScript(shell: CompletionShell): string {
  return shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : FISH;
}
