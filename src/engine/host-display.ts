/**
 * What a host (an agent `wire` answers) shows of handlers' output that others do not, which the
 * reduction follows (engine.md D8, M3). Absent fields: the engine's own behaviour.
 */
export interface HostDisplay {
  /**
   * D8: `'pass'` when the host writes handlers' `terminalSequence` to its terminal (Deep Agents
   * Code): the result carries the allowed ones. Otherwise each gives an `info` diagnostic.
   */
  terminalSequences?: 'pass';
  /**
   * M3: `'shown'` when the host shows a handler's `systemMessage` whatever its `suppressOutput`
   * says (Claude Code, whose `suppressOutput` hides only the hook's stdout from the transcript).
   */
  suppressedMessages?: 'shown';
}
