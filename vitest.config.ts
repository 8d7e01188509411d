import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most files wait on loopback servers more than they compute, so every core gets a worker (vitest's
// own default, cores - 1, is one worker on a 2-core machine). The files that measure memory or the
// timing of a real terminal or of signals run afterwards, one at a time, on a quiet machine.
const ALONE = [
  'test/e2e/download-memory.test.ts',
  'test/e2e/terminal.test.ts',
  'test/e2e/deploy-terminal.test.ts',
  'test/e2e/signals.test.ts',
];

export default defineConfig({
  test: {
    // End-to-end cases spawn the built CLI; give a loaded 2-core CI machine room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'parallel', include: ['test/**/*.test.ts'], exclude: ALONE, maxWorkers: Math.max(2, availableParallelism()), sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
