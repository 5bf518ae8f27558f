import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Folders whose test files call hookpm's modules in process (and the child processes they start)
 * but change no process-wide state that outlives a file: no `vi.mock`, no fake timers, no
 * `chdir`, every environment variable set is restored, and no loopback server (a keep-alive
 * connection that one file's HTTP client pools could reach another file's server on a reused
 * port). They share one module graph per worker (`isolate: false`), which spares each file a
 * fresh worker process and a fresh import of hookpm's sources: about 0.5 s of CPU per file.
 * Outside these folders, a shuffled run of every file this way failed: a test that asserts a
 * singleton has not started, the CLI bundle's code-cache tests, a registry server reached on a
 * reused port, and others not looked into. Those folders stay isolated.
 */
const SHARED = [
  'engine',
  'hooks',
  'io',
  'json',
  'plugin',
  'policy',
  'project',
  'store',
  'text',
  'workspace',
].map((folder) => `test/${folder}/**/*.test.ts`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes (hookpm, handlers, agents, registries) rather than
    // compute, so one test file per core leaves cores idle while files wait: run one more file
    // than there are cores (vitest's own default is one fewer than the cores).
    maxWorkers: availableParallelism() + 1,
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED },
      },
    ],
  },
});
