import { fileURLToPath } from 'node:url';

/**
 * The environment that makes a hookpm child kill itself (SIGKILL) right before it renames a file
 * onto a path that contains `target` (kill-before-rename.cjs): a crash at one chosen instant of a
 * durable write (registry.md D2: a write is a rename).
 */
export function killBeforeRenameEnv(target: string): Record<string, string> {
  return {
    NODE_OPTIONS: `--require ${fileURLToPath(new URL('./kill-before-rename.cjs', import.meta.url))}`,
    HOOKPM_TEST_KILL_BEFORE_RENAME_TO: target,
  };
}
