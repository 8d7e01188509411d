// Every workflow in .github/workflows checked against GitHub's workflow schema before it can fail on
// GitHub's side (.ci/run and the CI workflow run this). The schema check is @action-validator/core,
// a devDependency from the npm registry that runs offline (WebAssembly, the schema inside).
//
//   node scripts/validate-workflows.mjs [dir]   (default: .github/workflows)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';

/** @import { ValidationError } from '@action-validator/core' */

/**
 * One line per schema error: where in the file, and what.
 * @param {ValidationError} error
 * @returns {string}
 */
function describe(error) {
  if ('states' in error && error.states) return error.states.flatMap((state) => state.errors.map(describe)).join('\n');
  const where =
    'path' in error ? error.path : error.location ? `line ${error.location.line}, column ${error.location.column}` : '';
  return `  ${where}: ${error.title}${error.detail ? ` (${error.detail})` : ''}`;
}

const dir = process.argv[2] ?? fileURLToPath(new URL('../.github/workflows', import.meta.url));
const files = readdirSync(dir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
if (files.length === 0) {
  console.error(`workflows: none in ${dir}`);
  process.exit(1);
}
let failed = 0;
for (const name of files) {
  const { errors } = validateWorkflow(readFileSync(join(dir, name), 'utf8'));
  if (errors.length === 0) continue;
  failed++;
  console.error(`workflows: ${name} is not a valid workflow:\n${errors.map(describe).join('\n')}`);
}
if (failed > 0) process.exit(1);
console.log(`workflows: ${files.join(', ')} valid`);
