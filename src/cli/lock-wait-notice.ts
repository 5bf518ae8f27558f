import { redact } from '../errors.js';
import { setLockWaitListener, type LockWait } from '../io/lock-wait.js';
import { clearDrawnLine } from './progress/drawn-line.js';
import { escapeControl } from './render/render.js';
import { writeText } from './stdio.js';

/**
 * Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): a command
 * that has waited a second for a lock says on stderr (so a terminal, a log and a test see it alike)
 * what it waits for: which command and process hold the lock, since when, and the lock file. Said
 * once per lock taken; the wait then goes on silently.
 */
export function watchLockWaits(): void {
  setLockWaitListener(printLockWait);
}

function printLockWait(wait: LockWait): void {
  // On its own line, not run into a download's progress line
  // (docs/reference/rules/cli.md#conventions).
  clearDrawnLine();
  const text = `hookpm: waiting for ${holderWords(wait.holder)} to release the lock ${wait.lockPath}`;
  writeText(2, `${escapeControl(redact(text))}\n`);
}

/** "`hookpm install guard` (process 41, running since <time>)", with the host when it is another. */
function holderWords(holder: LockWait['holder']): string {
  if (holder === null) return 'an unknown process';
  const host = holder.hostname === hostName() ? '' : ` on ${holder.hostname}`;
  const what = `process ${holder.pid}${host}, running since ${holder.startedAt}`;
  return holder.command === undefined ? what : `\`${holder.command}\` (${what})`;
}

function hostName(): string {
  return process.getBuiltinModule('node:os').hostname();
}
