import { valueFlags, type CommandSpec } from './model.js';

/** A bash completion function: walks the words typed so far to find the command, then offers its words. */
export function bashScript(specs: CommandSpec[]): string {
  const paths = specs.filter((s) => s.path.includes('/')).map((s) => s.path);
  const cases = specs.map(bashCase).join('\n');
  return `# bash completion for mint-admin. Generated from the command tree by \`npm run completions\`: do not edit.
# Install: source it from ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/mint-admin

_mint_admin() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="mint-admin" word i skip=0 npos=0 cmds="" opts=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    if (( skip )); then skip=0; continue; fi
    case "$word" in
      ${valueFlags(specs).join('|')}) skip=1; continue ;;
      -*) continue ;;
    esac
    case "$path/$word" in
      ${paths.join('|')}) path="$path/$word" ;;
      *) npos=$(( npos + 1 )) ;;
    esac
  done
  case "$path" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$cmds" -- "$cur") )
  fi
}

complete -F _mint_admin mint-admin
`;
}

function bashCase(spec: CommandSpec): string {
  const prevCases = spec.options
    .filter((o) => o.takesValue)
    .map((o) => {
      const flags = o.flags.join('|');
      if (o.path === 'directory')
        return `        ${flags}) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return ;;`;
      if (o.path === 'file')
        return `        ${flags}) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;`;
      if (o.choices.length)
        return `        ${flags}) COMPREPLY=( $(compgen -W "${o.choices.join(' ')}" -- "$cur") ); return ;;`;
      return `        ${flags}) return ;;`;
    });
  const cmds = spec.subcommands.map((s) => s.name).join(' ');
  const opts = spec.options.flatMap((o) => o.flags).join(' ');
  const args = spec.argChoices.length ? `\n      (( npos == 0 )) && cmds="$cmds ${spec.argChoices.join(' ')}"` : '';
  const dirs =
    spec.argPath === 'directory'
      ? `\n      if (( npos == 0 )) && [[ "$cur" != -* ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return; fi`
      : '';
  return `    ${spec.path})
      case "$prev" in
${prevCases.join('\n')}
      esac
      cmds="${cmds}"
      opts="${opts}"${args}${dirs}
      ;;`;
}
