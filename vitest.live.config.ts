import { defineConfig } from 'vitest/config';

/**
 * Tests against real agents that take minutes and are run by hand (`npm run test:claude-compare`),
 * not by `npm test`: their files end in `.live.ts`.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.live.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
