import { readFileSync } from 'node:fs';

// Read once from package.json so the version has a single source; cheap enough for --version.
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
