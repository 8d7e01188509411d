// The command the warehouse's absence prints is the one that adds it to the install that runs: a global
// install's sibling, or the project's own dependency; and the version it names is the one package.json
// allows as the peer.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DuckDbMissingError } from '../../src/analytics-store/errors.js';
import {
  DUCKDB_PACKAGE,
  DUCKDB_VERSION,
  warehouseInstallCommand,
} from '../../src/analytics-store/warehouse-install.js';
import { tempDir } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

describe('warehouseInstallCommand', () => {
  const dirs: Array<{ cleanup(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it('beside a global install ({prefix}/lib/node_modules/mint-admin, no package.json above): npm install --global', () => {
    const dir = tempDir();
    dirs.push(dir);
    const program = join(dir.path, 'prefix/lib/node_modules/mint-admin/dist/cli/program.cjs');
    mkdirSync(join(program, '..'), { recursive: true });
    expect(warehouseInstallCommand(program)).toEqual({
      command: `npm install --global ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`,
    });
  });

  it("in a project's node_modules: the same command without --global, in that project", () => {
    const dir = tempDir();
    dirs.push(dir);
    const project = join(dir.path, 'project');
    mkdirSync(join(project, 'node_modules/mint-admin/dist/cli'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{}');
    expect(warehouseInstallCommand(join(project, 'node_modules/mint-admin/dist/cli/program.cjs'))).toEqual({
      command: `npm install ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`,
      project,
    });
  });

  it('the error ends with exactly that command', () => {
    const dir = tempDir();
    dirs.push(dir);
    const error = new DuckDbMissingError(
      new Error('x'),
      join(dir.path, 'lib/node_modules/mint-admin/dist/cli/program.cjs'),
    );
    expect(error.installCommand).toBe(`npm install --global ${DUCKDB_PACKAGE}@${DUCKDB_VERSION}`);
    expect(error.message.endsWith(`Add it with: ${error.installCommand}`)).toBe(true);
  });

  it('package.json: DuckDB is an optional peer from that version (so no install brings it), and a devDependency for the tests', () => {
    expect(pkg.peerDependencies[DUCKDB_PACKAGE]).toBe(`^${DUCKDB_VERSION}`);
    expect(pkg.peerDependenciesMeta[DUCKDB_PACKAGE]).toEqual({ optional: true });
    expect(pkg.devDependencies[DUCKDB_PACKAGE]).toBe(`^${DUCKDB_VERSION}`);
    expect(pkg.dependencies[DUCKDB_PACKAGE]).toBeUndefined();
    expect(pkg.optionalDependencies?.[DUCKDB_PACKAGE]).toBeUndefined();
  });
});
