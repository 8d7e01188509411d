import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end cases spawn the built CLI; give a loaded 2-core CI machine room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
