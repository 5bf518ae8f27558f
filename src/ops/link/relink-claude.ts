import type { ParseError } from 'jsonc-parser';
import { parseLinkCommand } from '../../agents/link-command.js';
import { isPlainObject } from '../../json/describe-value.js';
import type { StorePaths } from '../../store/store-paths.js';
import { assertReadInside } from '../../workspace/inside-root.js';
import { statPathKind } from '../../workspace/path-kind.js';
import type { HookpmPaths } from '../steps/links/hookpm-command.js';
import { linkTarget, type LinkScope } from '../steps/links/link-target.js';
import type { LinkResult } from './link.js';

export interface RelinkOptions {
  home: string;
  cwd: string;
  store: StorePaths;
  /** This hookpm: only a link to it is refreshed (a link to another hookpm is that one's). */
  hookpm: HookpmPaths;
}

/** A link of this hookpm that could not be made again: its file, and why. */
export interface RelinkFailure {
  scope: LinkScope;
  file: string;
  message: string;
}

export interface RelinkOutcome {
  /** The links rewritten. */
  relinked: LinkResult[];
  /**
   * The settings files that hold a link of this hookpm that could not be made again (a file that
   * is no longer strict JSON, or read-only): left as they are, for the caller to name.
   */
  failed: RelinkFailure[];
}

/**
 * plugins.md G1: after install, enable, disable, update and uninstall, each Claude Code link of
 * this hookpm (user scope, and the project of `cwd`) is made again when the Claude Code events its
 * enabled plugins hook, or their background handlers (G3), are not the ones linked, with the
 * deadline the link has. A settings file without such a link is left alone; one whose link would
 * change but cannot be edited (not strict JSON, read-only) is left as it is and is one of
 * `failed`. Never throws: a link that cannot be refreshed is the next `hookpm link claude`'s to
 * fix, and `hookpm doctor` names it.
 */
export async function relinkClaude(options: RelinkOptions): Promise<RelinkOutcome> {
  const outcome: RelinkOutcome = { relinked: [], failed: [] };
  for (const project of [false, true]) {
    try {
      const relinked = await relinkOne(options, project);
      if (relinked === null) continue;
      if ('message' in relinked) outcome.failed.push(relinked);
      else outcome.relinked.push(relinked);
    } catch {
      // No link of this hookpm known there (no project, a file out of the project).
    }
  }
  return outcome;
}

async function relinkOne(
  options: RelinkOptions,
  project: boolean,
): Promise<LinkResult | RelinkFailure | null> {
  const target = await linkTarget({
    agent: 'claude',
    project,
    home: options.home,
    cwd: options.cwd,
  });
  if (
    project &&
    target.file === (await linkTarget({ agent: 'claude', project: false, ...options })).file
  )
    return null;
  // No settings file there (most stores have none in one scope or both; a dangling link or an
  // unreadable directory, which the reader would refuse, counts too): no link to refresh, and
  // neither the settings editor nor the link step is loaded.
  if ((await statPathKind(target.file)) === 'missing') return null;
  // registry.md J2: a project's file that a symlink leads out of the project is not read.
  if (target.root !== undefined) assertReadInside(target.root, target.file, 'the project');
  const { readSettingsText } = await import('../steps/links/settings-text.js');
  const { linkHandlersOf } = await import('../../agents/link-edit.js');
  const failure = (error: unknown): RelinkFailure => ({
    scope: target.scope,
    file: target.file,
    message: error instanceof Error ? error.message : String(error),
  });
  const read = await readSettingsText(target.file, target.agent.hooksConfigKeys).catch(
    (error: unknown) => failure(error),
  );
  // A file that link refuses to edit (a comment added since, say) is read leniently, to tell
  // whether it holds a link of this hookpm that the plugins' events no longer fit.
  const settings = 'message' in read ? await lenientSettings(target.file) : read.settings;
  if (settings === null) return null;
  const command = linkHandlersOf(settings, 'claude')
    .map((h) => parseLinkCommand(isPlainObject(h.value) ? h.value['command'] : undefined))
    .find((c) => c !== null && c.background !== true);
  if (command === undefined || command === null) return null;
  const { hookpm } = options;
  if (
    command.node !== hookpm.node ||
    command.hookpm !== hookpm.hookpm ||
    command.home !== hookpm.home
  )
    return null;
  const { linkAgent, linkWouldChange } = await import('./link.js');
  const linkOptions = {
    agent: 'claude' as const,
    project,
    home: options.home,
    cwd: options.cwd,
    store: options.store,
    hookpm,
    ...(command.deadline === null ? {} : { timeoutSec: command.deadline }),
  };
  if ('message' in read) return (await linkWouldChange(linkOptions, settings)) ? read : null;
  // linkAgent writes nothing when the link already holds what the plugins want.
  const result = await linkAgent(linkOptions).catch((error: unknown) => failure(error));
  if ('message' in result) return result;
  return result.changed ? result : null;
}

/**
 * The settings of a file hookpm does not edit, read as JSON with comments and trailing commas
 * (`link` edits only strict JSON); null when even so it is no JSON object, or cannot be read.
 */
async function lenientSettings(file: string): Promise<Record<string, unknown> | null> {
  const { readSettingsFile } = await import('../../workspace/agent-settings-file.js');
  const bytes = await readSettingsFile(file).then(
    (read) => read.bytes,
    () => null,
  );
  if (bytes === null) return null;
  // Loaded only here: every install, enable and update reaches this module.
  const { parse } = await import('jsonc-parser');
  const errors: ParseError[] = [];
  const value: unknown = parse(bytes.toString('utf8'), errors, { allowTrailingComma: true });
  return errors.length === 0 && isPlainObject(value) ? value : null;
}
