/**
 * D8 (docs/reference/rules/engine.md#d8): the `terminalSequence` output field of Deep Agents Code,
 * which writes it to its terminal. Allowed are OSC 0, 1, 2 (titles), 9, 99, 777 (notifications),
 * each ended by BEL or ST, with no control character in its text, and a bare BEL; a value made of
 * anything else, or empty, is refused whole (as Deep Agents Code's validator does).
 */
const ALLOWED = /^(?:\x1b\](?:0|1|2|9|99|777);[^\x00-\x1f\x7f-\x9f]*(?:\x07|\x1b\\)|\x07)+$/;

export function isAllowedTerminalSequence(value: string): boolean {
  return value !== '' && ALLOWED.test(value);
}
