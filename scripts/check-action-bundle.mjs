// The release workflow's check that the action people run is the source being released: a workflow
// that says `uses: <owner>/mint-admin@v1` runs action/dist/index.cjs as committed, with no build step,
// so the bundle is built again here (in memory) and must be the committed file byte for byte.
//
//   node scripts/check-action-bundle.mjs [--bundle <file>]   (default: action/dist/index.cjs)
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildAction } from './build-action.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--bundle');
const bundle = at >= 0 ? args[at + 1] : fileURLToPath(new URL('../action/dist/index.cjs', import.meta.url));
if (bundle === undefined) {
  console.error('usage: node scripts/check-action-bundle.mjs [--bundle <file>]');
  process.exit(2);
}
/** @type {Buffer} */
let committed;
try {
  committed = readFileSync(bundle);
} catch (error) {
  const { code, message } = /** @type {NodeJS.ErrnoException} */ (error);
  console.error(`action bundle: cannot read ${bundle} (${code ?? message})`);
  process.exit(1);
}
const built = await buildAction({ write: false });
if (!built) throw new Error('esbuild returned no output file for the action bundle');
const fresh = Buffer.from(built);
if (!committed.equals(fresh)) {
  console.error(
    `action bundle: ${bundle} (${committed.length} bytes) is not what action/src and src/ build (${fresh.length} bytes): run \`npm run build:action\`, commit the result, and tag that commit`,
  );
  process.exit(1);
}
console.log(`action bundle: ${bundle} is a fresh build of the source`);
