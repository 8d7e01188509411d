// Preloaded with `node --import` into the built CLI: records every module the process loads into the
// file named by MINT_ADMIN_RECORD_IMPORTS, one file URL a line, so a test can see what a command
// loaded: what the ESM loader resolves (hooks), and what require() loads.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

const file = process.env.MINT_ADMIN_RECORD_IMPORTS;
register(new URL('./record-imports-hooks.mjs', import.meta.url), { data: { file } });

const record = (path) => {
  if (file && typeof path === 'string' && isAbsolute(path)) appendFileSync(file, `${pathToFileURL(path).href}\n`);
};

const load = Module._load;
Module._load = function (request, parent, isMain) {
  try {
    record(Module._resolveFilename(request, parent, isMain));
  } catch {
    // not resolvable: the real load reports it
  }
  return load.apply(this, arguments);
};
