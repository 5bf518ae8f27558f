/**
 * The generic reason of a block that gives none (engine.md K2: an exit 2 with empty stderr), also
 * where an agent would drop a block without text (cli.md W3, Codex).
 */
export const GENERIC_BLOCK_REASON = 'Hook blocked the operation';
