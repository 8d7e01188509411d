import { valueFlags, type CommandSpec } from './model.js';

/** A zsh completion function in the same shape as the bash one, with descriptions. */
export function zshScript(specs: CommandSpec[]): string {
  const paths = specs.filter((s) => s.path.includes('/')).map((s) => s.path);
  return `#compdef mint-admin
# zsh completion for mint-admin. Generated from the command tree by \`npm run completions\`: do not edit.
# Install: save it as _mint-admin in a directory on $fpath, then restart zsh (compinit must run).

_mint-admin() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" path_="mint-admin" word i skip=0 npos=0
  local -a cmds opts
  for (( i = 2; i < CURRENT; i++ )); do
    word="\${words[i]}"
    if (( skip )); then skip=0; continue; fi
    case "$word" in
      (${valueFlags(specs).join('|')}) skip=1; continue ;;
      (-*) continue ;;
    esac
    case "$path_/$word" in
      (${paths.join('|')}) path_="$path_/$word" ;;
      (*) npos=$(( npos + 1 )) ;;
    esac
  done
  case "$path_" in
${specs.map(zshCase).join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    _describe -t options 'option' opts
  else
    _describe -t commands 'command' cmds
  fi
}

if [[ "\${funcstack[1]}" == "_mint-admin" ]]; then
  _mint-admin "$@"
else
  compdef _mint-admin mint-admin
fi
`;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const item = (name: string, description: string) => quote(`${name.replace(/:/g, '\\:')}:${description}`);

function zshCase(spec: CommandSpec): string {
  const prevCases = spec.options
    .filter((o) => o.takesValue)
    .map((o) => {
      const flags = o.flags.join('|');
      if (o.path === 'directory') return `        (${flags}) _files -/; return ;;`;
      if (o.path === 'file') return `        (${flags}) _files; return ;;`;
      if (o.choices.length) return `        (${flags}) compadd -- ${o.choices.join(' ')}; return ;;`;
      return `        (${flags}) return ;;`;
    });
  const cmds = spec.subcommands.map((s) => item(s.name, s.description));
  const opts = spec.options.flatMap((o) => o.flags.map((f) => item(f, o.description)));
  const args = spec.argChoices.length
    ? `\n      (( npos == 0 )) && cmds+=(${spec.argChoices.map((c) => item(c, 'value')).join(' ')})`
    : '';
  const dirs =
    spec.argPath === 'directory' ? `\n      if (( npos == 0 )) && [[ "$cur" != -* ]]; then _files -/; return; fi` : '';
  return `    (${spec.path})
      case "$prev" in
${prevCases.join('\n')}
      esac
      cmds=(${cmds.join(' ')})
      opts=(${opts.join(' ')})${args}${dirs}
      ;;`;
}
