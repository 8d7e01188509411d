// `npm run completions`: regenerates completions/ from the command tree (after `npm run build`).
// A test fails when the committed files differ from what this writes.
import { writeFileSync } from 'node:fs';
import { buildProgram } from '../dist/cli/program.js';
import { COMPLETION_FILES, completionScript } from '../dist/cli/completion/index.js';

const never = new AbortController().signal;
const program = buildProgram({ io: process, env: {}, clock: undefined, signal: never, random: Math.random });
for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
  const path = new URL(`../completions/${file}`, import.meta.url);
  writeFileSync(path, await completionScript(shell, program));
  console.log(`wrote completions/${file}`);
}
