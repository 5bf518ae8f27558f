import { createReadline } from './readline.js';
import { HookpmError } from '../../errors.js';
import type { ReviewReport } from '../../ops/steps/consent/report.js';
import { colourEnabled } from '../render/colour.js';
import { renderReview } from '../render/render-review.js';
import { escapeControl } from '../render/render.js';
import { interrupted } from './interrupted.js';
import { terminalWidth } from '../stdio.js';

/**
 * plugins.md Q4: shows the review on stderr and asks to enable (an update: to approve what it
 * adds or changes, consentQuestion). `y`/`yes` consents; an empty answer or `n`/`no` declines; end
 * of input cancels (E_CANCELLED, exit 1); Ctrl+C ends the question's line and cancels with exit
 * status 130 (interrupted.ts). Cancelling says what stays as it was (cancelledWords).
 */
export function askConsent(review: ReviewReport): Promise<boolean> {
  const input = process.stdin;
  const output = process.stderr;
  output.write(
    `${renderReview(review, { width: terminalWidth(2), colour: colourEnabled(output) })}\n\n`,
  );
  const rl = createReadline({ input, output });
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void): void => {
      if (done) return;
      done = true;
      rl.close();
      fn();
    };
    const details = { plugin: review.id };
    rl.on('SIGINT', () =>
      finish(() => {
        output.write('\n');
        reject(interrupted(`cancelled: ${cancelledWords(review)}`, details));
      }),
    );
    rl.on('close', () =>
      finish(() => {
        output.write('\n');
        reject(new HookpmError('E_CANCELLED', `cancelled: ${cancelledWords(review)}`, details));
      }),
    );
    rl.question(`${escapeControl(consentQuestion(review))} [y/N] `, (answer) => {
      const word = answer.trim().toLowerCase();
      finish(() => resolve(word === 'y' || word === 'yes'));
    });
  });
}

/**
 * Messages, questions and waits (docs/design/decisions.md#where-the-rules-are-silent): "Enable
 * guard@examples 1.0.0 and let these hooks run?" for a plugin not consented to before; for an
 * update of a consented one, what it asks approval for: "update guard@examples 1.0.0 -> 1.1.0:
 * approve 1 new hook and 2 changed code files?" (every kind of change it waits on: new and changed
 * hooks, changed code files - `its files` when what changed cannot be told - and wider
 * capabilities).
 */
export function consentQuestion(review: ReviewReport): string {
  const { installed, diff } = review;
  if (installed === null || diff === null || installed.version === review.version)
    return `Enable ${review.id} ${review.version} and let these hooks run?`;
  const unreadable = review.codeDiff?.baseline === 'unreadable';
  const parts = [
    counted(diff.added.length, 'new hook', 'new hooks'),
    counted(diff.changed.length, 'changed hook', 'changed hooks'),
    unreadable
      ? 'its files'
      : counted(review.codeDiff?.files.length ?? 0, 'changed code file', 'changed code files'),
    diff.capabilities?.widens === true ? 'wider capabilities' : null,
  ].filter((part) => part !== null);
  const what = parts.length > 0 ? joined(parts) : 'its hooks';
  return `update ${review.id} ${installed.version} -> ${review.version}: approve ${what}?`;
}

/** `a`, `a and b`, `a, b and c`. */
function joined(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

function counted(n: number, one: string, many: string): string | null {
  return n === 0 ? null : `${n} ${n === 1 ? one : many}`;
}

/** What a cancelled question leaves as it was: nothing installed, the old version, or disabled. */
function cancelledWords(review: ReviewReport): string {
  const { installed } = review;
  if (installed === null) return `${review.id} ${review.version} was not installed`;
  if (installed.version !== review.version)
    return `${review.id} stays at ${installed.version}; ${review.version} was not installed`;
  return `${review.id} was not enabled`;
}
