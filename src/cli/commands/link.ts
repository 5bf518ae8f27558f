import type { Command } from 'commander';
import {
  AGENT_IDS,
  isAgentId,
  LINK_TIMEOUT_RANGE,
  LINK_TIMEOUT_SEC,
  type AgentId,
} from '../../agents/agent.js';
import { HookpmError } from '../../errors.js';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';
import type { UnlinkOptions } from '../../ops/link/unlink.js';
import { clip } from '../../text/clip.js';

interface LinkFlags {
  project?: boolean;
  timeout?: string;
}

/** `hookpm link [agent]` and `hookpm unlink <agent>`: hookpm's plugins inside an agent. */
export function register(program: Command): void {
  program
    .command('link [agent]')
    .helpGroup('Run')
    .description(
      `run hookpm's enabled plugins inside an agent (${AGENT_IDS.join(', ')}); alone: every link's state`,
    )
    .option(
      '--project',
      "link the project's settings (<project root>/.claude/settings.json, ...) instead of the user's",
    )
    .option(
      '--timeout <s>',
      `the agent's deadline for hookpm's handler, in seconds (default ${LINK_TIMEOUT_SEC}); hookpm answers before it`,
    )
    .addHelpText(
      'after',
      [
        '',
        "Adds one hookpm handler per event to the agent's settings and changes nothing else; the",
        'agent keeps running its own hooks. Each agent session runs the plugins enabled when it',
        'started, until `hookpm reload --session <id>`.',
        '',
        'Codex reads $CODEX_HOME/hooks.json (~/.codex/hooks.json) and asks you to trust new hooks',
        'once in its /hooks; Gemini CLI reads ~/.gemini/settings.json, under its own event names.',
        '',
        'Example:',
        '  $ hookpm link claude',
        '  $ hookpm link claude --timeout 120',
        '  $ hookpm link codex',
        '  $ hookpm link gemini --project',
        '  $ hookpm link deepagents --project',
        '  $ hookpm link --json',
        '',
      ].join('\n'),
    )
    .action(async (agent: string | undefined, flags: LinkFlags, command: Command) => {
      const globals = globalOptions(command);
      if (agent === undefined) return showLinks(globals, flags);
      const { linkAgent } = await import('../../ops/link/link.js');
      const { currentHookpm } = await import('../../ops/steps/links/hookpm-command.js');
      const result = await linkAgent({
        ...settingsOf(agent, flags, globals),
        hookpm: currentHookpm(globals.hookpmHome ?? null),
        ...(flags.timeout === undefined ? {} : { timeoutSec: parseTimeout(flags.timeout) }),
      });
      if (globals.json) return printJson(result);
      const { formatLinked } = await import('../render/render-link.js');
      printLine(formatLinked(result));
    });
  program
    .command('unlink <agent>')
    .helpGroup('Run')
    .description("take hookpm's handlers out of an agent's settings")
    .option('--project', "unlink the project's settings instead of the user's")
    .addHelpText('after', '\nExample:\n  $ hookpm unlink claude\n')
    .action(async (agent: string, flags: LinkFlags, command: Command) => {
      const globals = globalOptions(command);
      const { unlinkAgent } = await import('../../ops/link/unlink.js');
      const result = await unlinkAgent(settingsOf(agent, flags, globals));
      if (globals.json) return printJson(result);
      const { formatUnlinked } = await import('../render/render-link.js');
      printLine(formatUnlinked(result));
    });
}

async function showLinks(globals: GlobalOptions, flags: LinkFlags): Promise<void> {
  const { listLinks } = await import('../../ops/steps/links/link-status.js');
  const { currentHookpm } = await import('../../ops/steps/links/hookpm-command.js');
  const links = await listLinks({
    home: globals.userHome,
    cwd: globals.cwd,
    env: process.env,
    hookpm: currentHookpm(globals.hookpmHome ?? null),
  });
  const shown = flags.project === true ? links.filter((l) => l.scope === 'project') : links;
  if (globals.json) return printJson({ links: shown });
  const { formatLinks } = await import('../render/render-link.js');
  printLine(formatLinks(shown));
}

/** Which agent settings file `link` and `unlink` edit, and the store whose links they record. */
function settingsOf(agent: string, flags: LinkFlags, globals: GlobalOptions): UnlinkOptions {
  return {
    agent: parseAgent(agent),
    project: flags.project === true,
    home: globals.userHome,
    cwd: globals.cwd,
    store: storePathsOf(globals),
    env: process.env,
  };
}

/** `--timeout <s>`: whole seconds (linkAgent checks the range). */
function parseTimeout(text: string): number {
  if (/^\d{1,9}$/.test(text)) return Number(text);
  throw new HookpmError(
    'E_USAGE',
    `--timeout: expected whole seconds, found ${JSON.stringify(text)}`,
    {
      expected: `an integer from ${LINK_TIMEOUT_RANGE.min} to ${LINK_TIMEOUT_RANGE.max}`,
      found: text,
      hint: `The agent's deadline for hookpm's handler, e.g. --timeout ${LINK_TIMEOUT_SEC}.`,
    },
  );
}

function parseAgent(name: string): AgentId {
  if (isAgentId(name)) return name;
  const near = AGENT_IDS.find(
    (id) => id === name.toLowerCase() || name.toLowerCase().startsWith(id),
  );
  throw new HookpmError(
    'E_USAGE',
    `unknown agent ${JSON.stringify(clip(name))}: expected one of ${AGENT_IDS.join(', ')}`,
    {
      expected: AGENT_IDS,
      found: name,
      hint:
        near === undefined
          ? '`hookpm link` lists the agents and their state.'
          : `Did you mean ${near}?`,
    },
  );
}
