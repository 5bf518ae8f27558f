/** cli.md 3: the result of an event nothing decided, written out field by field. */
export function neutralResult(event: string, snapshotId: string): Record<string, unknown> {
  return {
    event,
    snapshotId,
    continue: true,
    stopReason: null,
    systemMessages: [],
    context: [],
    permission: null,
    feedback: [],
    continueLoop: false,
    suppressOriginalPrompt: false,
    diagnostics: [],
    runs: [],
  };
}
