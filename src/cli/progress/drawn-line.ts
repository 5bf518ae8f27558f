/**
 * The progress line on screen now, if any (docs/reference/rules/cli.md#conventions: it is cleared
 * before anything else is printed on its stream). A line registers its `clear` while drawn; a
 * printer outside the line's owner, such as the lock-wait notice, calls `clearDrawnLine` first, and
 * the next draw puts the line back below what was printed. Dependency-free, so the notice loads
 * nothing more at start-up.
 */
let drawnClear: (() => void) | undefined;

export function setDrawnLine(clear: () => void): void {
  drawnClear = clear;
}

/** Forgets `clear` if it is the line on screen (a line cleared by its owner). */
export function unsetDrawnLine(clear: () => void): void {
  if (drawnClear === clear) drawnClear = undefined;
}

export function clearDrawnLine(): void {
  drawnClear?.();
}
