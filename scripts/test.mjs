// `npm test`: the whole suite (vitest) on a Node.js line the package supports (package.json
// `engines`). On an older Node.js (a machine that ships Node.js 20, say) it runs the suite on Node.js
// 22 taken from the npm registry (scripts/node-line.mjs), first on PATH so that the CLI the tests
// spawn runs on it too; the reader installs nothing by hand.
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeLineBin } from './node-line.mjs';

const TESTED_LINE = 22;
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const args = [vitest, 'run', ...process.argv.slice(2)];
const major = Number(process.versions.node.split('.')[0]);
let node = process.execPath;
let env = process.env;
if (major < TESTED_LINE) {
  const bin = nodeLineBin(String(TESTED_LINE));
  console.error(`Node.js ${process.versions.node} is older than the package supports: running the tests on Node.js ${TESTED_LINE} (${bin})`);
  node = `${bin}/node`;
  env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
}
const result = spawnSync(node, args, { stdio: 'inherit', env });
process.exit(result.status ?? 1);
