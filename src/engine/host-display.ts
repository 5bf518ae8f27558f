/**
 * What a host (an agent `wire` answers) shows of handlers' output that others do not, or does with
 * it, which the reduction follows (engine.md D8, M3, events). Absent fields: the engine's own
 * behaviour.
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
  /**
   * engine.md events (SubagentStop): `'continues'` when the host keeps a subagent going with
   * SubagentStop context (Claude Code and Codex read it back as `decision: "block"`). While the
   * payload's `stop_hook_active` is true, that context is then ignored with `continuation_guard`,
   * as a block is: hookpm counts no subagent continuations, so nothing else would end them.
   */
  subagentStopContext?: 'continues';
}
