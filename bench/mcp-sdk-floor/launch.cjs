// Runs the bundled SDK floor server (server.mjs, bundled by bench/mcp.mjs) the way the CLI's entry
// runs its program: Node's own compile cache turned on where Node has it, then a plain require.
// `node launch.cjs <bundle>`.
'use strict';
const nodeModule = require('node:module');

if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
const bundle = process.argv[2];
if (!bundle) {
  console.error('usage: node launch.cjs <bundle>');
  process.exit(2);
}
require(require('node:path').resolve(bundle));
