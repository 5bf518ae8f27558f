import { isTerminal } from '../stdio.js';

/** docs/reference/rules/cli.md#conventions: a question is asked only when stdin and stderr are terminals, and never with --json. */
export function canAsk(json: boolean): boolean {
  return !json && isTerminal(0) && isTerminal(2);
}
