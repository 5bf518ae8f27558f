import { parseLinkCommand } from '../../agents/link-command.js';
import { isPlainObject } from '../../json/describe-value.js';
import type { StorePaths } from '../../store/store-paths.js';
import { assertReadInside } from '../../workspace/inside-root.js';
import { statPathKind } from '../../workspace/path-kind.js';
import type { HookpmPaths } from '../steps/links/hookpm-command.js';
import { linkTarget } from '../steps/links/link-target.js';
import type { LinkResult } from './link.js';

export interface RelinkOptions {
  home: string;
  cwd: string;
  store: StorePaths;
  /** This hookpm: only a link to it is refreshed (a link to another hookpm is that one's). */
  hookpm: HookpmPaths;
}

/**
 * plugins.md G1: after install, enable, disable, update and uninstall, each Claude Code link of
 * this hookpm (user scope, and the project of `cwd`) is made again when the Claude Code events its
 * enabled plugins hook, or their background handlers (G3), are not the ones linked, with the
 * deadline the link has. A settings file
 * without such a link, or one hookpm cannot read, is left alone. Returns the links rewritten.
 * Never throws: a link that cannot be refreshed is the next `hookpm link claude`'s to fix, and
 * `hookpm doctor` names it.
 */
export async function relinkClaude(options: RelinkOptions): Promise<LinkResult[]> {
  const done: LinkResult[] = [];
  for (const project of [false, true]) {
    try {
      const relinked = await relinkOne(options, project);
      if (relinked !== null) done.push(relinked);
    } catch {
      // Left for `hookpm link claude`; doctor reports a link with events missing.
    }
  }
  return done;
}

async function relinkOne(options: RelinkOptions, project: boolean): Promise<LinkResult | null> {
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
  const read = await readSettingsText(target.file, target.agent.hooksConfigKeys);
  const command = linkHandlersOf(read.settings, 'claude')
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
  // linkAgent writes nothing when the link already holds what the plugins want.
  const { linkAgent } = await import('./link.js');
  const result = await linkAgent({
    agent: 'claude',
    project,
    home: options.home,
    cwd: options.cwd,
    store: options.store,
    hookpm,
    ...(command.deadline === null ? {} : { timeoutSec: command.deadline }),
  });
  return result.changed ? result : null;
}
