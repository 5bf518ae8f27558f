import type { HookpmPaths } from '../steps/links/hookpm-command.js';
import { listLinks, type LinkStatus } from '../steps/links/link-status.js';
import { clip } from '../../text/clip.js';
import { okCheck, problem, type DoctorCheck } from './check.js';

/**
 * `hookpm link`'s handlers in the agents' settings (user scope and the project of `cwd`): one
 * check per link, an error for a link left pointing at a hookpm or node that moved (the agent's
 * events then reach no plugin), a warning for a partial link, a link to another hookpm (or to this
 * one on another store, said so), or a settings file hookpm cannot read, a link in a settings file
 * that turns every hook off (Agent.hooksOff), and a link an earlier hookpm wrote without
 * `--deadline` (docs/reference/rules/cli.md#w1: its handlers' deadlines are not capped to the
 * agent's).
 */
export async function checkLinks(input: {
  home: string;
  cwd: string;
  hookpm: HookpmPaths;
}): Promise<DoctorCheck[]> {
  const links = (await listLinks(input)).filter((l) => l.state !== 'unlinked');
  if (links.length === 0)
    return [okCheck('links', 'no agent is linked (`hookpm link <agent>` links one)')];
  return links.map((link) => checkOf(link, input.hookpm));
}

/** A hookpm home as a message names it: `--home <dir>`, or the platform's directories. */
function homeWords(home: string | null): string {
  return home === null ? "the platform's directories" : `--home ${clip(home)}`;
}

function checkOf(link: LinkStatus, hookpm: HookpmPaths): DoctorCheck {
  const name = `link:${link.agent}:${link.scope}`;
  const relink = `hookpm link ${link.agent}${link.scope === 'project' ? ' --project' : ''}`;
  const where = `${link.name} (${link.scope}, ${link.file})`;
  if (link.hooksOff !== null && (link.state === 'linked' || link.state === 'partial'))
    return problem(
      name,
      'warning',
      `${where} is linked, but ${link.hooksOff}: no plugin runs there, no guard decides`,
      {
        code: 'link_hooks_off',
        fix: `Remove the setting from ${link.file} to let the agent run hookpm's plugins.`,
      },
    );
  switch (link.state) {
    case 'linked':
      if (link.command !== null && link.command.deadline === null)
        return problem(
          name,
          'warning',
          `${where} names no deadline (an earlier hookpm wrote it), so a hung handler can make the agent kill hookpm before it answers`,
          { code: 'link_no_deadline', fix: `Run \`${relink}\` to write the deadline.` },
        );
      if (link.command?.unchecked === true)
        return problem(
          name,
          'warning',
          `${where} runs hookpm without checking that it is there (an earlier hookpm wrote it), so the agent's tools run unguarded if hookpm or its Node is removed`,
          { code: 'link_unchecked', fix: `Run \`${relink}\` to write the checked command.` },
        );
      return okCheck(name, `${where} runs hookpm's plugins on ${link.events.length} events`);
    case 'partial':
      return problem(
        name,
        'warning',
        `${where} is linked on some events only; not on ${link.missing.join(', ')}`,
        {
          code: 'link_partial',
          fix: `Run \`${relink}\`.`,
        },
      );
    case 'moved':
      return problem(
        name,
        'error',
        `${where}: ${link.problem ?? 'the linked hookpm is gone'}, so its events reach no plugin`,
        {
          code: 'link_moved',
          fix: `Run \`${relink}\` with the hookpm you use now.`,
        },
      );
    case 'other':
      // The same hookpm made for another home: its events reach another store's plugins.
      if (link.command?.node === hookpm.node && link.command.hookpm === hookpm.hookpm)
        return problem(
          name,
          'warning',
          `${where} runs this hookpm on another store (${homeWords(link.command.home)}), not the one this command reads (${homeWords(hookpm.home)})`,
          {
            code: 'link_other',
            fix: `Run \`${relink}\` to link this store instead, or run doctor with the link's store.`,
          },
        );
      return problem(
        name,
        'warning',
        `${where} runs another hookpm (${clip(link.command?.hookpm ?? '?')}), not this one`,
        {
          code: 'link_other',
          fix: `Run \`${relink}\` to link this hookpm instead.`,
        },
      );
    default:
      return problem(name, 'warning', `${where} cannot be read: ${link.problem ?? ''}`, {
        code: 'link_unreadable',
        fix: 'Fix the settings file by hand; hookpm edits only strict JSON.',
      });
  }
}
