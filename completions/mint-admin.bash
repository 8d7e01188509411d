# bash completion for mint-admin. Generated from the command tree by `npm run completions`: do not edit.
# Install: source it from ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/mint-admin

_mint_admin() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="mint-admin" word i skip=0 npos=0 cmds="" opts=""
  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="${COMP_WORDS[i]}"
    if (( skip )); then skip=0; continue; fi
    case "$word" in
      --allow|--archive|--base-path|--base-url|--cursor|--db|--domain|--export-api|--export-version|--file|--flows|--format|--from|--host|--interval|--keep-releases|--limit|--max-requests|--max-size|--of|--offset|--out|--output|--parquet|--path|--period|--port|--profile|--project|--root|--source|--status|--timeout|--to|--top|-f|-o|-p) skip=1; continue ;;
      -*) continue ;;
    esac
    case "$path/$word" in
      mint-admin/agent|mint-admin/agent/run|mint-admin/agent/get|mint-admin/agent/message|mint-admin/export|mint-admin/export/start|mint-admin/export/status|mint-admin/export/bundle|mint-admin/export/download|mint-admin/export/run|mint-admin/export/verify|mint-admin/export/serve|mint-admin/export/host-config|mint-admin/searches|mint-admin/searches/list|mint-admin/deploy|mint-admin/deploy/start|mint-admin/deploy/status|mint-admin/preview|mint-admin/preview/start|mint-admin/preview/status|mint-admin/automation|mint-admin/automation/run|mint-admin/autopilot|mint-admin/autopilot/run|mint-admin/analytics|mint-admin/analytics/searches|mint-admin/analytics/feedback|mint-admin/analytics/conversations|mint-admin/analytics/thread|mint-admin/analytics/callers|mint-admin/analytics/views|mint-admin/analytics/visitors|mint-admin/analytics/gaps|mint-admin/analytics/sync|mint-admin/analytics/query|mint-admin/analytics/report|mint-admin/analytics/budget|mint-admin/config|mint-admin/config/set|mint-admin/config/get|mint-admin/config/unset|mint-admin/config/list|mint-admin/config/path|mint-admin/auth|mint-admin/auth/login|mint-admin/auth/status|mint-admin/mcp|mint-admin/completion|mint-admin/sandbox) path="$path/$word" ;;
      *) npos=$(( npos + 1 )) ;;
    esac
  done
  case "$path" in
    mint-admin)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="agent export searches deploy preview automation autopilot analytics config auth mcp completion sandbox"
      opts="-V --version -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/agent)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="run get message"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/agent/run)
      case "$prev" in
        -f|--file) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-f --file --wait --timeout --interval --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/agent/get)
      case "$prev" in
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--wait --timeout --interval -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/agent/message)
      case "$prev" in
        -f|--file) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-f --file --wait --timeout --interval -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="start status bundle download run verify serve host-config"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/start)
      case "$prev" in
        --base-path) return ;;
        --export-version) return ;;
        --path) return ;;
        --export-api) COMPREPLY=( $(compgen -W "auto jobs project" -- "$cur") ); return ;;
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--base-path --export-version --path --export-api --wait --timeout --interval -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/status)
      case "$prev" in
        --export-api) COMPREPLY=( $(compgen -W "auto jobs project" -- "$cur") ); return ;;
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--export-api --wait --timeout --interval -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/bundle)
      case "$prev" in
        --export-api) COMPREPLY=( $(compgen -W "auto jobs project" -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--export-api -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/download)
      case "$prev" in
        -o|--out) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return ;;
        --keep-releases) return ;;
        --max-size) return ;;
        --archive) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        --export-api) COMPREPLY=( $(compgen -W "auto jobs project" -- "$cur") ); return ;;
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-o --out --force --link --keep-releases --max-size --archive --verify --export-api --wait --timeout --interval -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/run)
      case "$prev" in
        --base-path) return ;;
        --export-version) return ;;
        --path) return ;;
        --timeout) return ;;
        --interval) return ;;
        -o|--out) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return ;;
        --keep-releases) return ;;
        --max-size) return ;;
        --archive) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        --export-api) COMPREPLY=( $(compgen -W "auto jobs project" -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--base-path --export-version --path --timeout --interval -o --out --force --link --keep-releases --max-size --archive --verify --export-api --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/export/verify)
      case "$prev" in
        --base-path) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--base-path -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      if (( npos == 0 )) && [[ "$cur" != -* ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return; fi
      ;;
    mint-admin/export/serve)
      case "$prev" in
        --port) return ;;
        --host) return ;;
        --base-path) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--port --host --base-path -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      if (( npos == 0 )) && [[ "$cur" != -* ]]; then compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- "$cur") ); return; fi
      ;;
    mint-admin/export/host-config)
      case "$prev" in
        --root) return ;;
        --domain) return ;;
        --base-path) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--root --domain --base-path -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      (( npos == 0 )) && cmds="$cmds nginx caddy apache cloudfront s3"
      ;;
    mint-admin/searches)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="list"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/searches/list)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --cursor) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --limit --cursor --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/deploy)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="start status"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/deploy/start)
      case "$prev" in
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--wait --timeout --interval --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/deploy/status)
      case "$prev" in
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--wait --timeout --interval --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/preview)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="start status"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/preview/start)
      case "$prev" in
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--wait --timeout --interval --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/preview/status)
      case "$prev" in
        --timeout) return ;;
        --interval) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--wait --timeout --interval --github-output -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/automation)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="run"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/automation/run)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--webhook -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/autopilot)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="run"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/autopilot/run)
      case "$prev" in
        -f|--file) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-f --file -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="searches feedback conversations thread callers views visitors gaps sync query report budget"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/searches)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --cursor) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --limit --cursor --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/feedback)
      case "$prev" in
        --source) COMPREPLY=( $(compgen -W "code_snippet contextual agent thumbs_only" -- "$cur") ); return ;;
        --status) return ;;
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --cursor) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--source --status --by-page --from --to --limit --cursor --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/conversations)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --cursor) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --limit --cursor --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/thread)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/callers)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --format) COMPREPLY=( $(compgen -W "table json csv" -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --format -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/views)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --offset) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --limit --offset --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/visitors)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --limit) return ;;
        --offset) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --limit --offset --all --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/gaps)
      case "$prev" in
        --from) return ;;
        --to) return ;;
        --format) COMPREPLY=( $(compgen -W "md csv json" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        --max-requests) return ;;
        --top) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--from --to --format -o --output --max-requests --top --prompt -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/sync)
      case "$prev" in
        --db) return ;;
        --from) return ;;
        --max-requests) return ;;
        --parquet) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--db --from --max-requests --parquet -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/query)
      case "$prev" in
        --db) return ;;
        --format) COMPREPLY=( $(compgen -W "table json ndjson csv" -- "$cur") ); return ;;
        -o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--db --format -o --output --csv-raw --no-header -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/report)
      case "$prev" in
        --period) COMPREPLY=( $(compgen -W "week month" -- "$cur") ); return ;;
        --format) COMPREPLY=( $(compgen -W "md json slack" -- "$cur") ); return ;;
        --db) return ;;
        --of) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--period --format --db --of -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/analytics/budget)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--reset -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/config)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="set get unset list path"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/config/set)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      (( npos == 0 )) && cmds="$cmds api-key project-id base-url export-api"
      ;;
    mint-admin/config/get)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      (( npos == 0 )) && cmds="$cmds api-key project-id base-url export-api"
      ;;
    mint-admin/config/unset)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      (( npos == 0 )) && cmds="$cmds api-key project-id base-url export-api"
      ;;
    mint-admin/config/list)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/config/path)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/auth)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds="login status"
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/auth/login)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--with-token -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/auth/status)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/mcp)
      case "$prev" in
        --allow) return ;;
        --root) return ;;
        --db) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--allow --root --db -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
    mint-admin/completion)
      case "$prev" in
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="-p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      (( npos == 0 )) && cmds="$cmds bash zsh fish"
      ;;
    mint-admin/sandbox)
      case "$prev" in
        --port) return ;;
        --host) return ;;
        --flows) return ;;
        -p|--project) return ;;
        --base-url) return ;;
        --profile) return ;;
      esac
      cmds=""
      opts="--port --host --flows -p --project --base-url --profile --json -q --quiet --no-color --debug -h --help"
      ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$cmds" -- "$cur") )
  fi
}

complete -F _mint_admin mint-admin
