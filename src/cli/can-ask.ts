/** cli.md section 1: a question is asked only when stdin and stderr are terminals, and never with --json. */
export function canAsk(json: boolean): boolean {
  return !json && process.stdin.isTTY === true && process.stderr.isTTY === true;
}
