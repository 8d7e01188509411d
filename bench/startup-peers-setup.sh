#!/usr/bin/env bash
# The CLIs bench/startup.mjs times beside mint-admin's start-up (`--version` of each), installed from
# the npm registry into bench/.cache/startup-peers/<name>/ (git-ignored), each on its own so that one
# that cannot be installed leaves the others (the bench notes what is absent). gh is timed only where
# it is installed.
set -uo pipefail
cd "$(dirname "$0")"
for package in wrangler netlify-cli vercel; do
  mkdir -p ".cache/startup-peers/$package"
  npm install --prefix ".cache/startup-peers/$package" --no-audit --no-fund --no-save --loglevel=error "$package" ||
    echo "startup-peers-setup: $package could not be installed; bench/startup.mjs notes it as absent" >&2
done
