import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The fast loop (npm run test:unit, docs/development.md): the tests that run in this process against
// the source, with no build and no subprocess, to run before every commit. Left out: what runs the
// built CLI or another program, or makes its fixtures with one (the e2e, action, docs, MCP and drift suites, completions through
// zsh and fish, man pages through groff, host configs through nginx and caddy, trees against GNU tar,
// the release scripts) and the few in-process files that take tens of seconds (a whole first sync,
// Parquet over thousands of days). `npm test` runs all of them.
const WHOLE_PROCESS = [
  'test/e2e/**',
  'test/action/**',
  'test/docs/**',
  'test/mcp/**',
  'test/drift/**',
  'test/release/**',
  'test/startup-imports.test.ts',
  'test/completions.test.ts',
  'test/man.test.ts',
  'test/structure.test.ts',
  'test/site/serve.test.ts',
  'test/site/host-config.test.ts',
  'test/site/verify-limits.test.ts',
  'test/site/verify-memory.test.ts',
  'test/download/gnu-tar-trees.test.ts',
  'test/download/incompressible.test.ts',
  'test/library/library.test.ts',
  'test/analytics-store/query-output-database.test.ts',
  'test/analytics-store/first-sync.test.ts',
  'test/analytics-store/parquet.test.ts',
  'test/analytics/gaps-large-pages.test.ts',
  // These make their fixtures or conditions with another program: GNU tar, git, a tmpfs mount, a
  // process holding a lock, a second user.
  'test/download/layout.test.ts',
  'test/download/tar-reader.test.ts',
  'test/download/target.test.ts',
  'test/download/archives.test.ts',
  'test/analytics-store/lock.test.ts',
  'test/analytics-store/query-disk-full.test.ts',
  'test/branch-name.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: WHOLE_PROCESS,
    maxWorkers: Math.max(2, availableParallelism() + 1),
    isolate: false,
    testTimeout: 30_000,
  },
});
