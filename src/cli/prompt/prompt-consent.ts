import { createReadline } from './readline.js';
import { HookpmError } from '../../errors.js';
import type { ReviewReport } from '../../ops/review/report.js';
import { colourEnabled } from '../render/colour.js';
import { renderReview } from '../render/render-review.js';
import { terminalWidth } from '../stdio.js';

/**
 * plugins.md Q4: shows the review on stderr and asks to enable. `y`/`yes` consents; an empty
 * answer or `n`/`no` declines; end of input and Ctrl+C cancel (E_CANCELLED).
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
    const cancel = (): void =>
      finish(() =>
        reject(
          new HookpmError('E_CANCELLED', `cancelled: ${review.id} was not enabled`, {
            plugin: review.id,
          }),
        ),
      );
    rl.on('SIGINT', cancel);
    rl.on('close', cancel);
    rl.question(
      `Enable ${review.id} ${review.version} and let these hooks run? [y/N] `,
      (answer) => {
        const word = answer.trim().toLowerCase();
        finish(() => resolve(word === 'y' || word === 'yes'));
      },
    );
  });
}
