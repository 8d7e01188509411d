// `node scripts/on-tested-node.mjs <script> [args]`: runs a script (the test runner for `npm test`, the
// demo for `npm run demo`) on a Node.js line the package supports (package.json `engines`). On an
// older Node.js (a machine that ships Node.js 20, say) it runs it on Node.js 22 taken from the npm
// registry (scripts/node-line.mjs), first on PATH so that the CLI the script spawns runs on it too;
// the reader installs nothing by hand.
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { nodeLineBin } from './node-line.mjs';

const TESTED_LINE = 22;
// package.json's `engines`: 22.12 or newer.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = major > TESTED_LINE || (major === TESTED_LINE && minor >= 12);
let node = process.execPath;
let env = process.env;
if (!supported) {
  const bin = nodeLineBin(String(TESTED_LINE));
  console.error(
    `Node.js ${process.versions.node} is older than the package supports: running on Node.js ${TESTED_LINE} (${bin})`,
  );
  node = `${bin}/node`;
  env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
}
const result = spawnSync(node, process.argv.slice(2), { stdio: 'inherit', env });
process.exit(result.status ?? 1);
