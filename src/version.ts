import { readFileSync } from 'node:fs';

// The bundle (scripts/build.mjs) inlines the version at build time; the plain tsc build reads it
// from package.json, so the version has one source either way.
declare const MINT_ADMIN_VERSION: string | undefined;

export const VERSION: string =
  typeof MINT_ADMIN_VERSION === 'string'
    ? MINT_ADMIN_VERSION
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
