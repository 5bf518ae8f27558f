import { EVENTS, type EventName } from '../../hooks/events.js';
import {
  CLAUDE_PLUGIN_DATA,
  CLAUDE_PLUGIN_ROOT,
  PLUGIN_DATA,
} from '../../plugin/path-variables.js';

/** One file of a new plugin: its path relative to the plugin root, its text and mode. */
export interface TemplateFile {
  path: string;
  text: string;
  mode: number;
}

/** Example event fields for each event (`payloads/<Event>.json`), as `hookpm run` takes them. */
const SAMPLE_INPUT: Readonly<Record<EventName, Record<string, unknown>>> = {
  SessionStart: { source: 'startup' },
  UserPromptSubmit: { prompt: 'Summarise the README' },
  SessionEnd: { reason: 'other' },
  PermissionRequest: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
  Notification: { message: 'Claude needs your permission', notification_type: 'permission_prompt' },
  PreToolUse: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
  PostToolUse: {
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_response: { stdout: 'README.md' },
  },
  PostToolUseFailure: { tool_name: 'Bash', tool_input: { command: 'false' }, error: 'exit 1' },
  PreCompact: { trigger: 'manual', custom_instructions: '' },
  Stop: { stop_hook_active: false },
  SubagentStart: { agent_type: 'general-purpose' },
  SubagentStop: { agent_type: 'general-purpose', stop_hook_active: false },
};

/** The example handler's matcher: `Bash` for tool events, else none (every occurrence). */
function matcherOf(event: EventName): string | null {
  return EVENTS[event].matcherField === 'tool_name' ? 'Bash' : null;
}

/** The script's answer to the event: the deny rule for PreToolUse, else a note in its data dir. */
function scriptBody(event: EventName): string {
  if (event === 'PreToolUse')
    return `// Deny a recursive rm of the root directory; allow everything else.
const command = String(payload.tool_input?.command ?? '');
if (/\\brm\\s+-[a-zA-Z]*r[a-zA-Z]*\\s+\\/(\\s|\\*|$)/.test(command)) {
  writeFileSync(
    1,
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: \`refusing to run \${JSON.stringify(command)}\`,
      },
    }),
  );
}
// No output and exit 0: no objection.`;
  return `// Record the event in the plugin's data directory, which survives updates; print nothing.
const data = process.env.${CLAUDE_PLUGIN_DATA} ?? process.env.${PLUGIN_DATA};
if (data) appendFileSync(join(data, 'events.log'), \`\${new Date().toISOString()} ${event}\\n\`);`;
}

function script(event: EventName): string {
  return `#!/usr/bin/env node
// The ${event} handler of this plugin. It reads the event's payload (one JSON object) on stdin and
// answers with its exit code and stdout: exit 0 with nothing printed means "no objection", exit 2
// blocks (stderr is the reason), a JSON object on stdout gives a decision or context.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const payload = JSON.parse(readFileSync(0, 'utf8'));

${scriptBody(event)}
`;
}

function readme(name: string, event: EventName, scriptFile: string): string {
  return `# ${name}

A hook plugin for hookpm, Deep Agents Code and Claude Code. It hooks \`${event}\`
(\`hooks/hooks.json\`), handled by \`${scriptFile}\` (Node.js).

## Try it

    hookpm test . ${event} --payload payloads/${event}.json
    hookpm validate .
    hookpm pack . --out dist

## Install it

    hookpm install ./
`;
}

/**
 * The files `hookpm init` writes for a plugin `name` whose example handler hooks `event`: a
 * manifest, hooks/hooks.json with one handler, its script, a sample payload and a README. What
 * they hold validates (plugins.md P1-P4, H1-H5) and packs as it is.
 */
export function pluginTemplate(name: string, event: EventName): TemplateFile[] {
  const scriptFile = `hooks/${kebab(event)}.mjs`;
  const matcher = matcherOf(event);
  const handler = {
    type: 'command',
    command: `node "\${${CLAUDE_PLUGIN_ROOT}}/${scriptFile}"`,
    timeout: 10,
  };
  const hooks = { [event]: [{ ...(matcher === null ? {} : { matcher }), hooks: [handler] }] };
  const manifest = { name, version: '0.1.0', description: `A ${event} hook`, license: 'MIT' };
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return [
    { path: '.claude-plugin/plugin.json', text: json(manifest), mode: 0o644 },
    { path: 'hooks/hooks.json', text: json({ hooks }), mode: 0o644 },
    { path: scriptFile, text: script(event), mode: 0o755 },
    { path: `payloads/${event}.json`, text: json(SAMPLE_INPUT[event]), mode: 0o644 },
    { path: 'README.md', text: readme(name, event, scriptFile), mode: 0o644 },
  ];
}

/** `PreToolUse` -> `pre-tool-use`. */
function kebab(event: EventName): string {
  return event.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '-') + c.toLowerCase());
}
