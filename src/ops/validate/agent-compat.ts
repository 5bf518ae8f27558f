import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import { childPath } from '../../hooks/json-path.js';
import { compileMatcher, matcherAccepts } from '../../hooks/matcher.js';
import { KNOWN_NOTIFICATION_TYPES } from '../../hooks/notification-types.js';
import type { DeclaredHandler } from '../../hooks/types.js';

/**
 * `hookpm validate`'s warnings about what runs under hookpm but not as written under an agent
 * (docs/reference/rules/engine.md#deep-agents-code):
 * - D11 `argv_without_command`: a handler with `argv` and no `command`. hookpm runs it; Deep Agents
 *   Code requires `command` on every handler and drops this one when it loads the document itself
 *   (user, project and plugin hooks it reads without hookpm);
 * - D10 `unknown_notification_type`: a Notification matcher that matches none of the
 *   `notification_type` values an agent sends, so the group never fires.
 */
export function agentCompatWarnings(declared: readonly DeclaredHandler[]): Diagnostic[] {
  const found: Diagnostic[] = [];
  const groupsSeen = new Set<string>();
  for (const d of declared) {
    const hasCommand = typeof d.command === 'string' && d.command.trim() !== '';
    if (Array.isArray(d.argv) && !hasCommand) {
      const message =
        'argv without command: Deep Agents Code requires command on every handler and drops this one (hookpm runs argv); add a command that runs the same program';
      found.push(diagnostic('argv_without_command', 'warning', message, { path: d.path }));
    }
    if (d.event !== 'Notification' || typeof d.matcher !== 'string') continue;
    const group = d.path.replace(/\.hooks\[\d+\]$/, '');
    if (groupsSeen.has(group)) continue;
    groupsSeen.add(group);
    const compiled = compileMatcher(d.matcher, 'Notification');
    if (!compiled.ok) continue;
    const fires = KNOWN_NOTIFICATION_TYPES.some((type) =>
      matcherAccepts(compiled.matcher, 'Notification', { notification_type: type }),
    );
    if (fires) continue;
    const message = `Notification matcher ${JSON.stringify(d.matcher)} matches no notification_type an agent sends (${KNOWN_NOTIFICATION_TYPES.join(', ')}); the group never fires`;
    found.push(
      diagnostic('unknown_notification_type', 'warning', message, {
        path: childPath(group, 'matcher'),
      }),
    );
  }
  return found;
}
