import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Files wait on loopback servers and child processes as much as they compute, so there is a worker
// per core and one more (vitest's own default, cores - 1, is one worker on a 2-core machine). The
// files that measure memory or draw on a real terminal at the spinner's pace run afterwards, one at a
// time, on a quiet machine. The parallel files share their workers' module graphs (isolate: false):
// importing the program's modules afresh for every file was a fifth of the suite's time, and no test
// mocks a module or changes the process's state for the next file.
const ALONE = ['test/site/verify-memory.test.ts', 'test/e2e/terminal.test.ts'];

export default defineConfig({
  test: {
    // End-to-end cases spawn the built CLI; give a loaded 2-core CI machine room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ALONE,
          maxWorkers: Math.max(2, availableParallelism() + 1),
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
