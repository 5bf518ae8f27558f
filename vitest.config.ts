import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes (hookpm, handlers, agents, registries) rather than
    // compute, so one test file per core leaves a core idle while the other waits: run at least
    // two at once (vitest's own default is one fewer than the cores, one on a 2-core machine).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
