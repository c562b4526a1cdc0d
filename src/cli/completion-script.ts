/**
 * Shell completion scripts for `quotelake completion bash|zsh|fish`. Each script asks quotelake
 * itself for the words (`quotelake --get-yargs-completions <words so far>`), so completions follow
 * the installed version: commands, options, option values with choices (--plan, --format,
 * --log-level) and pipeline names. Adapted from yargs' templates, with two changes: the shell is
 * named by the script (SHELL=…) rather than guessed from the login shell, since yargs formats the
 * answer per shell; and fish passes the word under the cursor, even an empty one, as the last word.
 * A value typed in its option's word (`--format=p`, `--output=pa`) completes too: bash gets the
 * word back whole from the pieces it split at "=", and each shell's file names follow the "=".
 */

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

const BASH = `###-begin-quotelake-completions-###
# quotelake completion for bash. Install: quotelake completion bash >> ~/.bashrc
# (or, with bash-completion: quotelake completion bash > ~/.local/share/bash-completion/completions/quotelake)
_quotelake_completions()
{
    local cur_word words i w typed=()
    # bash splits "--format=p" at the "=" (COMP_WORDBREAKS): quotelake gets the option's word whole.
    for ((i = 0; i <= COMP_CWORD; i++)); do
        w="\${COMP_WORDS[i]}"
        if ((i > 1)) && [[ "\${typed[-1]}" == -* && ( "$w" == "=" || "\${typed[-1]}" == *= ) ]]; then
            typed[-1]+="$w"
        else
            typed+=("$w")
        fi
    done
    cur_word="\${typed[-1]}"
    mapfile -t words < <(SHELL=bash quotelake --get-yargs-completions "\${typed[@]}" 2>/dev/null)
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${words[@]}" )" -- "\${cur_word}")
    # bash replaces only what follows the "=": the answers lose the option before it.
    [[ "$cur_word" == -*=* ]] && COMPREPLY=("\${COMPREPLY[@]#*=}")
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
    # "--output=pa": file names after the "=".
    [[ "\${words[CURRENT]}" == -*=* ]] && compset -P '*='
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
    else if string match -qr -- '^-[^=]*=' "$current"
        # "--output=pa": file names after the "=", each with the option before it.
        set -l option (string replace -r -- '=.*' '=' "$current")
        printf '%s\n' $option(__fish_complete_path (string replace -r -- '^[^=]*=' '' "$current"))
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
