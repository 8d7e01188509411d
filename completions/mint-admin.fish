# fish completion for mint-admin. Generated from the command tree by `npm run completions`: do not edit.
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
            case --base-url --cursor --format --from --host --limit --output --port --profile --project --to -o -p
                set skip 1
                continue
            case '-*'
                continue
        end
        if contains -- "$path/$word" mint-admin/config mint-admin/config/set mint-admin/config/get mint-admin/config/unset mint-admin/config/list mint-admin/config/path mint-admin/sandbox mint-admin/completion mint-admin/searches mint-admin/searches/list
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
complete -c mint-admin -n '__mint_admin_at mint-admin' -a config -d 'manage the admin key, project id and base URL, per profile'
complete -c mint-admin -n '__mint_admin_at mint-admin' -a sandbox -d 'run a local sandbox of the Admin API, for trying mint-admin and testing pipelines offline'
complete -c mint-admin -n '__mint_admin_at mint-admin' -a completion -d 'print the shell completion script (the same text as completions/ in the package)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -a searches -d 'search analytics: what readers search for in your docs'
complete -c mint-admin -n '__mint_admin_at mint-admin' -s V -l version -d 'print the version'
complete -c mint-admin -n '__mint_admin_at mint-admin' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -a set -d 'save a setting in the selected profile'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -a get -d 'print the effective value of a setting (the API key masked)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -a unset -d 'remove a setting from the selected profile'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -a list -d 'show every setting, its effective value (key masked) and where it comes from'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -a path -d 'print the config file\'s path'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set 0' -a 'api-key project-id base-url'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/set' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get 0' -a 'api-key project-id base-url'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/get' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset 0' -a 'api-key project-id base-url'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/unset' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/list' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/config/path' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l port -x -d 'port for the API (0 picks a free one)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l host -x -d 'address to listen on'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/sandbox' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion 0' -a 'bash zsh fish'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/completion' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -a list -d 'search terms with their hits, click-through rate and top clicked page, most searched first'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches' -s h -l help -d 'show help'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l from -x -d 'start of the date range: YYYY-MM-DD or ISO 8601 (UTC unless it has an offset)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l to -x -d 'end of the date range, EXCLUSIVE: that day itself is not counted (a week: --from 2026-11-16 --to 2026-11-23)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l limit -x -d 'terms per page, 1..100 (default 50; --all always uses 100)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l cursor -x -d 'start at this cursor (from a previous page, or from a resume hint)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l all -d 'follow every page to the end, 100 terms per request (each request counts against the 100/hour analytics limit)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l format -x -a 'table json ndjson csv' -d 'output format (default: table; --json is --format json)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -s o -l output -r -F -d 'write the data to this file instead of stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l csv-raw -d 'keep CSV cells that start with = + - @ tab or CR as they are (by default they get a leading \')'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l no-header -d 'leave out the header line of csv and piped table output (to append a resumed export)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -s p -l project -x -d 'project id (env MINTLIFY_PROJECT_ID)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l base-url -x -d 'API base URL (env MINTLIFY_API_URL)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l profile -x -d 'config profile (env MINT_ADMIN_PROFILE)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l json -d 'machine-readable JSON on stdout'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -s q -l quiet -d 'no progress or hints on stderr'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l no-color -d 'no colour (also NO_COLOR)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -l debug -d 'log HTTP requests and stack traces to stderr (secrets redacted)'
complete -c mint-admin -n '__mint_admin_at mint-admin/searches/list' -s h -l help -d 'show help'
