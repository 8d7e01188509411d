import { valueFlags, type CommandSpec, type OptionSpec } from './model.js';

/** fish completions: one `complete` line per word, guarded by the command path typed so far. */
export function fishScript(specs: CommandSpec[]): string {
  const paths = specs.filter((s) => s.path.includes('/')).map((s) => s.path);
  const lines = specs.flatMap(fishLines);
  return `# fish completion for mint-admin. Generated from the command tree by \`npm run completions\`: do not edit.
# Install: save it as ~/.config/fish/completions/mint-admin.fish

function __mint_admin_scan --description 'print the mint-admin command path typed so far, then the count of positional words'
    set -l path mint-admin
    set -l skip 0
    set -l npos 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case ${valueFlags(specs).join(' ')}
                set skip 1
                continue
            case '-*'
                continue
        end
        if contains -- "$path/$word" ${paths.join(' ')}
            set path "$path/$word"
        else
            set npos (math $npos + 1)
        end
    end
    echo $path
    echo $npos
end

function __mint_admin_at --description 'is the command path PATH (and, if given, the positional count N)?'
    set -l state (__mint_admin_scan)
    test "$state[1]" = "$argv[1]"; or return 1
    test (count $argv) -lt 2; or test "$state[2]" = "$argv[2]"
end

complete -c mint-admin -f
${lines.join('\n')}
`;
}

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishLines(spec: CommandSpec): string[] {
  const at = `-n ${quote(`__mint_admin_at ${spec.path}`)}`;
  const subs = spec.subcommands.map((s) => `complete -c mint-admin ${at} -a ${s.name} -d ${quote(s.description)}`);
  const options = spec.options.map((o) => `complete -c mint-admin ${at} ${fishFlags(o)} -d ${quote(o.description)}`);
  const args = spec.argChoices.length
    ? [`complete -c mint-admin -n ${quote(`__mint_admin_at ${spec.path} 0`)} -a ${quote(spec.argChoices.join(' '))}`]
    : [];
  const dirs =
    spec.argPath === 'directory'
      ? [`complete -c mint-admin -n ${quote(`__mint_admin_at ${spec.path} 0`)} -x -a '(__fish_complete_directories)'`]
      : [];
  return [...subs, ...args, ...dirs, ...options];
}

function fishFlags(o: OptionSpec): string {
  const names = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
  if (!o.takesValue) return names;
  if (o.path === 'directory') return `${names} -x -a '(__fish_complete_directories)'`;
  if (o.path === 'file') return `${names} -r -F`;
  if (o.choices.length) return `${names} -x -a ${quote(o.choices.join(' '))}`;
  return `${names} -x`;
}
