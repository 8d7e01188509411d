// Preloaded with `node --import` into the built CLI: records every module URL the ESM loader
// resolves into the file named by MINT_ADMIN_RECORD_IMPORTS, so a test can see what a command loaded.
import { register } from 'node:module';

register(new URL('./record-imports-hooks.mjs', import.meta.url), { data: { file: process.env.MINT_ADMIN_RECORD_IMPORTS } });
