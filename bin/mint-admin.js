#!/usr/bin/env node
// Thin shim: everything lives in the bundled ESM entry point (scripts/build.mjs).
import '../dist/cli/main.js';
