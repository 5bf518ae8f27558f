import type { LinkResult } from '../../ops/link/link.js';
import type { LinkStatus } from '../../ops/steps/links/link-status.js';
import type { UnlinkResult } from '../../ops/link/unlink.js';
import type { ReloadedSession } from '../../ops/wire/reload-sessions.js';
import { clip } from '../../text/clip.js';
import { escapeControl, renderTable } from './render.js';

export function formatLinked(result: LinkResult): string {
  const where = `${result.name} (${result.scope}): ${escapeControl(result.file)}`;
  const trust = result.trustNote === null ? [] : [`  once: ${result.trustNote}`];
  if (!result.changed) return [`${where} is linked already; nothing to do`, ...trust].join('\n');
  return [
    `linked ${where}`,
    `  ${result.events.length} events run hookpm's enabled plugins: ${linkedEvents(result)}`,
    `  ${result.name} gives hookpm ${result.timeoutSec} s per event (--timeout); plugins' handlers end before that`,
    ...(result.eventsNotLinked.length === 0
      ? []
      : [`  not linked (no such event in hookpm's engine): ${result.eventsNotLinked.join(', ')}`]),
    ...(result.backup === null
      ? []
      : [`  the previous file is kept at ${escapeControl(result.backup)}`]),
    `  ${result.name} still runs its own hooks; \`hookpm unlink ${result.agent}${result.scope === 'project' ? ' --project' : ''}\` takes hookpm's out`,
    ...trust,
  ].join('\n');
}

/** `PreToolUse, ...`, or `BeforeTool (PreToolUse), ...` where the agent names events otherwise. */
function linkedEvents(result: LinkResult): string {
  return result.events
    .map((event, i) => {
      const engine = result.engineEvents[i];
      return engine === undefined || engine === event ? event : `${event} (${engine})`;
    })
    .join(', ');
}

export function formatUnlinked(result: UnlinkResult): string {
  const where = `${result.name} (${result.scope}): ${escapeControl(result.file)}`;
  switch (result.outcome) {
    case 'unchanged':
      return `${where} is not linked; nothing to do`;
    case 'restored':
      return `unlinked ${where}: the file is as it was before \`hookpm link\``;
    case 'edited':
      return `unlinked ${where}: hookpm's handlers taken out, the rest as it is`;
  }
}

const STATE_WORDS: Readonly<Record<LinkStatus['state'], string>> = {
  linked: 'linked',
  partial: 'linked (some events)',
  moved: 'broken: hookpm moved',
  other: 'linked to another hookpm',
  unlinked: 'not linked',
  unreadable: 'cannot read',
};

export function formatLinks(links: readonly LinkStatus[]): string {
  const rows = links.map((l) => [l.agent, l.scope, STATE_WORDS[l.state], l.file]);
  const problems = links
    .filter((l) => l.problem !== null)
    .map((l) => `  ${l.agent} (${l.scope}): ${escapeControl(l.problem ?? '')}`);
  return [renderTable(['AGENT', 'SCOPE', 'STATE', 'FILE'], rows), ...problems].join('\n');
}

/**
 * `hookpm reload`: a line per session. A session id is the agent payload's `session_id`, of any
 * length and any characters: escaped and cut (text/clip.ts).
 */
export function formatReloaded(sessions: readonly ReloadedSession[]): string {
  if (sessions.length === 0) return 'no agent session is pinned; nothing to reload';
  return sessions
    .map((s) => {
      const plugins = s.plugins.map((p) => p.id).join(', ') || 'none';
      return `reloaded ${s.agent} session ${escapeControl(clip(s.sessionId))}: ${s.handlers} handlers (plugins: ${plugins}), snapshot ${s.snapshotId.slice(0, 12)}`;
    })
    .join('\n');
}
