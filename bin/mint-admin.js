#!/usr/bin/env node
// Thin shim: everything lives in the compiled ESM entry point.
import '../dist/main.js';
