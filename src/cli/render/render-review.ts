import type { ReviewHook, ReviewReport } from '../../ops/steps/consent/report.js';
import { EVENTS, isHookEventName } from '../../hooks/events.js';
import { BACKGROUND_FIELDS } from '../../plugin/surface.js';
import { terminalWidth } from '../stdio.js';
import { colourEnabled, paint, type Tone } from './colour.js';
import { capabilityLines } from './render-capabilities.js';
import { codeDiffLines, fileLines, show, showPath } from './render-files.js';
import { escapeControl } from './render.js';
import { clip, FIELD_MAX } from '../../text/clip.js';
import { wrapLine } from './wrap.js';

/**
 * Where the review is printed: its width (null: not fitted) and whether it is coloured. Default:
 * stdout's (stdio.ts terminalWidth, colour.ts colourEnabled).
 */
export interface ReviewOutput {
  width?: number | null;
  colour?: boolean;
}

/**
 * plugins.md Q3: the review as text - what `hookpm review` prints, what the consent question shows
 * and what `install`/`update --dry-run` print for each plugin: name, version, source, integrity,
 * description, then per event each handler's every field that decides what runs (command, and
 * argv, args, shell, onFailure and the background fields where declared, matcher, `if`, timeout,
 * type), its status message, source document and key (and whether the user turned it off), then
 * the diff against the consented surface, the hooks turned off, the files with their digests, the
 * code files changed since consent, and the diagnostics. Every plugin-supplied string goes through
 * escapeControl (JSON-quoted values are escaped by JSON.stringify, then again here). On a terminal
 * each line is wrapped at spaces to its width (wrap.ts), and the diff lines are coloured: added
 * green, removed red, changed yellow.
 */
export function renderReview(report: ReviewReport, output: ReviewOutput = {}): string {
  const width = output.width === undefined ? terminalWidth(1) : output.width;
  const colour = output.colour ?? colourEnabled();
  return reviewLines(report)
    .flatMap((line) => {
      const text = typeof line === 'string' ? line : line.text;
      const tone = typeof line === 'string' ? null : line.tone;
      return wrapLine(escapeControl(text), width).map((part) => paint(part, tone, colour));
    })
    .join('\n');
}

/** A line of the review, with the colour of a diff line. */
type ReviewLine = string | { text: string; tone: Tone };

function reviewLines(report: ReviewReport): ReviewLine[] {
  const lines: ReviewLine[] = [
    `${report.id} ${report.version}`,
    `  source:      ${report.source}`,
    `  integrity:   ${report.integrity ?? '(not installed)'}`,
    `  description: ${report.description === null ? '(none)' : clip(report.description, FIELD_MAX)}`,
    `  surface:     ${report.surfaceHash} (${consentWords(report)})`,
  ];
  lines.push(...capabilityLines(report));
  if (report.installed !== null) {
    const pending =
      report.installed.pending === null
        ? ''
        : `, update ${report.installed.pending} waits for consent`;
    lines.push(
      `  installed:   ${report.installed.version}, ${report.installed.enabled ? 'enabled' : 'disabled'}${pending}`,
    );
  }
  lines.push('', report.hooks.length === 0 ? 'hooks: none' : 'hooks:');
  let event: string | null = null;
  for (const hook of report.hooks) {
    if (hook.event !== event) {
      event = hook.event;
      lines.push(`  ${clip(hook.event)}`);
    }
    lines.push(...hookLines(hook, '    - '));
  }
  if (report.diff !== null) lines.push('', ...diffLines(report));
  lines.push(...optOutLines(report));
  lines.push('', ...fileLines(report.files));
  if (report.codeDiff !== null) lines.push('', ...codeDiffLines(report.codeDiff).map(toneOfCode));
  const problems = report.diagnostics;
  if (problems.length > 0) {
    lines.push('', 'diagnostics:');
    for (const d of problems)
      lines.push(
        `  ${d.severity} ${d.code} ${d.path === null ? '' : `${clip(showPath(d.path))}: `}${d.message}`,
      );
  }
  return lines;
}

/** A line of the code diff: its file lines (`  + path`) and diff lines (`      +text`). */
function toneOfCode(line: string): ReviewLine {
  const mark = /^(?: {2}| {6})([-+~])/.exec(line)?.[1];
  if (mark === undefined || line.startsWith('      ...')) return line;
  return { text: line, tone: mark === '+' ? 'added' : mark === '-' ? 'removed' : 'changed' };
}

function consentWords(report: ReviewReport): string {
  if (report.consented) return 'consented';
  if (report.diff === null && report.codeDiff === null) return 'not consented yet';
  const { diff } = report;
  const sameHooks =
    diff !== null &&
    diff.added.length + diff.removed.length + diff.changed.length === 0 &&
    (diff.capabilities ?? null) === null;
  return sameHooks
    ? 'hooks as consented; files changed since'
    : 'differs from what you consented to';
}

/**
 * The timeout a hook runs with: as declared, else its event's default (a Claude Code event's too,
 * though the surface leaves it null there, G1); `(none)` under an event no agent has.
 */
function timeoutText(hook: ReviewHook): string {
  if (hook.timeout !== null) return `${show(hook.timeout)}s`;
  return isHookEventName(hook.event) ? `${EVENTS[hook.event].defaultTimeoutSec}s` : '(none)';
}

function hookLines(hook: ReviewHook, lead: string): string[] {
  const pad = ' '.repeat(lead.length);
  const lines = [`${lead}command ${show(hook.command)}`];
  if (hook.argv !== null) lines.push(`${pad}argv ${show(hook.argv)}`);
  if (hook.args !== null) lines.push(`${pad}args ${show(hook.args)}`);
  if (hook.shell !== null) lines.push(`${pad}shell ${show(hook.shell)}`);
  if (hook.onFailure !== null && hook.onFailure !== undefined)
    lines.push(`${pad}on failure ${show(hook.onFailure)}`);
  for (const field of BACKGROUND_FIELDS)
    if (hook[field] !== null && hook[field] !== undefined)
      lines.push(`${pad}${field} ${show(hook[field])}`);
  lines.push(
    `${pad}matcher ${hook.matcher === null ? '(all)' : show(hook.matcher)}  if ${hook.if === null ? '(none)' : show(hook.if)}  timeout ${timeoutText(hook)}  type ${show(hook.type)}`,
  );
  if (hook.statusMessage !== null) lines.push(`${pad}status message ${show(hook.statusMessage)}`);
  const off = hook.off ? '  OFF (you turned it off)' : '';
  lines.push(
    `${pad}from ${showPath(hook.source)}  key ${hook.key}${off}${hook.valid ? '' : `  INERT: ${hook.diagnostic ?? 'invalid'}`}`,
  );
  if (hook.runsIn !== undefined) lines.push(`${pad}${runsInLine(hook.runsIn)}`);
  return lines;
}

/** Where a hook runs when not everywhere (plugins.md G1): its review line. */
function runsInLine(where: NonNullable<ReviewHook['runsIn']>): string {
  switch (where) {
    case 'claude':
      return "runs inside Claude Code only (Claude Code's own event, through `hookpm link claude`); inert in hookpm's engine, Deep Agents Code, Codex and Gemini CLI";
    case 'claude-background':
      return "runs in the background inside Claude Code only (async, through `hookpm link claude`); inert in hookpm's engine, Deep Agents Code, Codex and Gemini CLI";
  }
}

function diffLines(report: ReviewReport): ReviewLine[] {
  const diff = report.diff as NonNullable<ReviewReport['diff']>;
  if (diff.added.length + diff.removed.length + diff.changed.length === 0)
    return ['changes since consent: none'];
  const lines: ReviewLine[] = [
    `changes since consent (${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed):`,
  ];
  const toned = (tone: Tone, texts: string[]): ReviewLine[] =>
    texts.map((text) => ({ text, tone }));
  for (const hook of diff.added)
    lines.push(...toned('added', hookLines(hook, `  + ${clip(hook.event)} `)));
  for (const hook of diff.removed)
    lines.push(...toned('removed', hookLines(hook, `  - ${clip(hook.event)} `)));
  for (const change of diff.changed) {
    lines.push(
      ...toned('removed', hookLines(change.before, `  ~ ${clip(change.before.event)} was `)),
    );
    lines.push(...toned('added', hookLines(change.after, `  ~ ${clip(change.after.event)} now `)));
    if (change.before.off && !change.after.off)
      lines.push(
        `      you turned this hook off (key ${change.before.key}); it changed, so it runs unless you turn it off again: hookpm disable ${report.id} --hook ${change.after.key}`,
      );
  }
  return lines;
}

/** The hooks the user turned off, and those whose hook changed or went (the opt-out lapses). */
function optOutLines(report: ReviewReport): string[] {
  if (report.optedOut.length === 0) return [];
  const lines = ['', 'hooks you turned off:'];
  for (const { key, applies } of report.optedOut)
    lines.push(
      applies
        ? `  ${key}: off`
        : `  ${key}: names no hook of this version (the hook changed or went), so it no longer applies: a changed hook runs unless you turn it off again`,
    );
  return lines;
}
