import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes (hookpm, handlers, agents, registries) rather than
    // compute, so one test file per core leaves cores idle while files wait: run one more file
    // than there are cores (vitest's own default is one fewer than the cores).
    maxWorkers: availableParallelism() + 1,
  },
});
