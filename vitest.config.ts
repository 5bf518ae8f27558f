import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// NODE_EXTRA_CA_CERTS (set by some sandboxes for their proxy) makes every Node process start by
// parsing a CA bundle: about 50 ms of CPU for each test worker, hookpm run and Node handler the
// suite starts, all of which talk to loopback servers only. The workers and their children go
// without it; the installs from the npm registry (test/agents/agent-cache.ts,
// test/tools/node-24.mjs) put it back from HOOKPM_TEST_CA_CERTS.
if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
  process.env.HOOKPM_TEST_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

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
