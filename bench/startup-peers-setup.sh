#!/usr/bin/env bash
# The CLIs bench/startup.mjs times beside mint-admin's start-up (`--version` of each), installed from
# the npm registry into bench/.cache/startup-peers/ (git-ignored). gh is timed only where installed.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .cache/startup-peers
npm install --prefix .cache/startup-peers --no-audit --no-fund --no-save --loglevel=error wrangler netlify-cli vercel
