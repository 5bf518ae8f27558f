import { beforeAll } from 'vitest';
import { BWRAP, INSTALL_TIMEOUT_MS, requireTool } from './system-package.js';

/**
 * For a test file that runs the handlers of a plugin that declares capabilities (the examples'
 * guard among them): they run under bubblewrap (docs/reference/rules/security.md#z4), installed
 * before the file's tests on first use, as every tool the tests drive is (system-package.ts).
 */
export function useBubblewrap(): void {
  beforeAll(async () => {
    await requireTool(BWRAP);
  }, INSTALL_TIMEOUT_MS);
}
