import type { SurfaceEntry } from '../../plugin/surface.js';
import type { IndexVersion } from '../indexes/index-schema.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// C0, DEL, C1, and the bidirectional overrides and isolates that reorder displayed text (plugins.md Q3).
const CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text safe in HTML element content and in quoted attribute values; control and bidi characters
 * are shown as `\uXXXX` so a plugin cannot hide or reorder what the user reads.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** A declared JSON value as shown: a string as is, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function field(label: string, value: string, code = true): string {
  const body = code ? `<code>${escapeHtml(value)}</code>` : escapeHtml(value);
  return `<span><span class="k">${escapeHtml(label)}</span> ${body}</span>`;
}

/**
 * One version's consent surface (docs/reference/rules/plugins.md#consent-surface), each handler
 * with its event, matcher, `if` rule, type, timeout, source, the exact command and argv, its status
 * message and, for an entry that never runs, why.
 */
export function renderSurface(
  version: string,
  entry: IndexVersion,
  surface: readonly SurfaceEntry[] | undefined,
): string {
  const hash =
    entry.surfaceHash === undefined
      ? ''
      : ` Surface hash <code>${escapeHtml(entry.surfaceHash)}</code>.`;
  if (surface === undefined)
    return `<p class="note">The hooks of ${escapeHtml(version)} are not listed here; review them with <code>hookpm review</code> before enabling.${hash}</p>`;
  const count = `${surface.length} handler${surface.length === 1 ? '' : 's'}`;
  const intro = `<p class="note">Enabling ${escapeHtml(version)} asks you to approve exactly these ${count}.${hash}</p>`;
  return [intro, ...surface.map(renderEntry)].join('\n');
}

function renderEntry(entry: SurfaceEntry): string {
  const facts = [
    `<span class="ev">${escapeHtml(entry.event)}</span>`,
    field(
      'matcher',
      entry.matcher === null ? '(every)' : shown(entry.matcher),
      entry.matcher !== null,
    ),
  ];
  if (entry.if !== null) facts.push(field('if', shown(entry.if)));
  if (entry.type !== null && entry.type !== 'command') facts.push(field('type', shown(entry.type)));
  if (entry.timeout !== null) {
    const timeout = typeof entry.timeout === 'number' ? `${entry.timeout} s` : shown(entry.timeout);
    facts.push(field('timeout', timeout, false));
  }
  facts.push(field('from', entry.source));
  const lines = [`<div class="row">${facts.join('')}</div>`];
  if (entry.command !== null)
    lines.push(`<pre class="cmd">${escapeHtml(shown(entry.command))}</pre>`);
  if (entry.argv !== null)
    lines.push(`<div class="row">${field('argv', JSON.stringify(entry.argv))}</div>`);
  if (entry.statusMessage !== null)
    lines.push(
      `<div class="row">${field('status message', shown(entry.statusMessage), false)}</div>`,
    );
  if (!entry.valid) {
    const why = entry.diagnostic ?? 'this handler is invalid';
    lines.push(`<p class="problem">Never runs: ${escapeHtml(why)}</p>`);
  }
  return `<div class="hook${entry.valid ? '' : ' invalid'}">\n${lines.join('\n')}\n</div>`;
}
