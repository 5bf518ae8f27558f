/** How much of stderr a `nonzero_exit` diagnostic quotes (K3). */
export const STDERR_TAIL_CHARS = 500;

/**
 * K3: the end of a failed handler's stderr as its diagnostic quotes it, `: <tail>`, at most
 * STDERR_TAIL_CHARS of it (a handler may write 100,000 bytes there, X7); empty when it wrote
 * nothing but whitespace.
 */
export function stderrTail(stderr: string): string {
  const trimmed = stderr.trim();
  if (trimmed === '') return '';
  const tail = trimmed.length > STDERR_TAIL_CHARS ? trimmed.slice(-STDERR_TAIL_CHARS) : trimmed;
  return `: ${tail}`;
}
