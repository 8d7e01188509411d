// Runs the bundled SDK floor server (server.mjs, bundled by bench/mcp.mjs) the way
// src/tuning/code-cache.ts runs the CLI's program: the file read as a string, wrapped as require()
// wraps it, compiled as a vm.Script with V8's code cache when there is one, and the cache written
// at exit when there was none (or V8 rejected it). `node launch.cjs <bundle> <cache file | ->`;
// `-` runs it with no cache at all (every start compiles).
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { Script } = require('node:vm');

const [file, cachePath] = process.argv.slice(2);
let cachedData;
if (cachePath !== '-') {
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined; // the first run: none yet
  }
}
const source = readFileSync(file, 'utf8');
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
const module_ = { exports: {} };
script.runInThisContext().call(module_.exports, module_.exports, require, module_, file, dirname(file));
if (cachePath !== '-' && (cachedData === undefined || script.cachedDataRejected === true)) {
  // At exit, as the CLI saves its cache when the command is done: the cache then holds every function the session ran.
  process.on('exit', () => writeFileSync(cachePath, script.createCachedData()));
}
