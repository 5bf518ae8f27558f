/**
 * Help groups and completion (docs/reference/commands.md#help-aliases-and-completion): the scripts
 * `hookpm completion <shell>` prints. Each asks hookpm itself for the candidates (`hookpm
 * completion --list -- <words>`, complete-words.ts) so it never goes stale; where there are none
 * the shell completes file names.
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function isShell(value: string): value is Shell {
  return (SHELLS as readonly string[]).includes(value);
}

const BASH = `# hookpm completion for bash. Load it with
#   source <(hookpm completion bash)
# in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/hookpm
_hookpm_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(hookpm completion --list -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _hookpm_complete hookpm
`;

const ZSH = `#compdef hookpm
# hookpm completion for zsh. Load it with
#   source <(hookpm completion zsh)
# in ~/.zshrc after compinit, or save it as _hookpm in a directory of $fpath
_hookpm() {
  local -a candidates
  candidates=(\${(f)"$(hookpm completion --list -- "\${(@)words[2,CURRENT]}" 2>/dev/null)"})
  if (( \${#candidates} )); then
    compadd -a candidates
  else
    _files
  fi
}
compdef _hookpm hookpm
`;

const FISH = `# hookpm completion for fish. Load it with
#   hookpm completion fish | source
# or save it as ~/.config/fish/completions/hookpm.fish
function __hookpm_complete
    set -l words (commandline -opc)
    set -l current (commandline -ct)
    hookpm completion --list -- $words[2..-1] "$current" 2>/dev/null
end
complete -c hookpm -f -a '(__hookpm_complete)'
`;

export const COMPLETION_SCRIPTS: Readonly<Record<Shell, string>> = {
  bash: BASH,
  zsh: ZSH,
  fish: FISH,
};
