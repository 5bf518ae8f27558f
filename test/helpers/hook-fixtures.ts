import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Hooks written as a test writes them (handlers, groups, printing scripts) and real temporary
 * directories. Imports nothing of hookpm's: a test file that spawns the built CLI imports this
 * instead of dispatch-helpers.ts, and so does not load the hooks parser into its worker.
 */

/** Absolute path of a fixture script in test/fixtures/handlers. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/handlers/${name}`, import.meta.url));
}

/** A shell-form handler. */
export function sh(command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'command', command, ...extra };
}

/** A handler run directly from argv. */
export function argv(args: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'command', command: args.join(' '), argv: args, ...extra };
}

/** A group: `matcher` null is a match-all group. */
export function group(matcher: string | null, ...hooks: Record<string, unknown>[]) {
  return matcher === null ? { hooks } : { matcher, hooks };
}

/** A shell command printing `value` as JSON on stdout (single-quoted for /bin/sh). */
export function printsJson(value: unknown, then = ''): string {
  const text = JSON.stringify(value).replace(/'/g, `'\\''`);
  return `printf '%s' '${text}'${then}`;
}

/** A fresh real directory (realpath, so it compares equal to what `pwd` prints). */
export function makeTempDir(label: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `hookpm-${label}-`)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
