// The one command that adds the DuckDB warehouse to the mint-admin that is running. The package
// leaves DuckDB out of every install (an optional peer dependency: npm ignores --omit for a global
// install, so an optional dependency would always come with it); Node resolves it from a global
// install's dist up to {prefix}/lib/node_modules, so a global install of it beside mint-admin is found,
// and a project's own node_modules serves a local install.
import { existsSync } from 'node:fs';
import { sep } from 'node:path';

/** The DuckDB package the warehouse runs on. */
export const DUCKDB_PACKAGE = '@duckdb/node-api';

/** The version the tests run against; package.json's peer range starts here (test/analytics-store/warehouse-install.test.ts). */
export const DUCKDB_VERSION = '1.5.6-r.1';

/**
 * `npm install --global @duckdb/node-api@<version>` unless the running code sits in a project's
 * node_modules (the directory holding that node_modules has a package.json), where it is the same
 * command without --global, run in that project. `modulePath` is the running file's path.
 */
export function warehouseInstallCommand(modulePath: string): { command: string; project?: string } {
  const spec = `${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`;
  const marker = `${sep}node_modules${sep}mint-admin${sep}`;
  const at = modulePath.lastIndexOf(marker);
  if (at >= 0) {
    const project = modulePath.slice(0, at) || sep;
    if (existsSync(`${project}${sep}package.json`)) return { command: `npm install ${spec}`, project };
  }
  return { command: `npm install --global ${spec}` };
}
