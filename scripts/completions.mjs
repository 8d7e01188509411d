// `npm run completions`: regenerates completions/ from the command tree (after `npm run build`).
// A test fails when the committed files differ from what this writes.
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/cli/program.js';
import { COMPLETION_FILES, completionScript } from '../dist/cli/completion/index.js';

/** @import { Deps } from '../src/cli/context.js' */

const never = new AbortController().signal;
// The tree is only read, never run, and prints nothing: building it touches no more than this.
const discard = { write: (/** @type {string} */ _text) => true };
const deps = /** @type {Deps} */ ({
  io: { stdout: discard, stderr: discard },
  env: {},
  signal: never,
  random: Math.random,
});
const program = buildProgram(deps);
const shells = /** @type {Array<keyof typeof COMPLETION_FILES>} */ (Object.keys(COMPLETION_FILES));
for (const shell of shells) {
  const file = COMPLETION_FILES[shell];
  const path = new URL(`../completions/${file}`, import.meta.url);
  writeFileSync(path, await completionScript(shell, program));
  console.log(`wrote completions/${file}`);
}
