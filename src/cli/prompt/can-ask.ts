import { isTerminal } from '../stdio.js';

/** cli.md section 1: a question is asked only when stdin and stderr are terminals, and never with --json. */
export function canAsk(json: boolean): boolean {
  return !json && isTerminal(0) && isTerminal(2);
}
