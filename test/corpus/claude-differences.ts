/**
 * Every check of the corpus comparison (claude-compare.test.ts) on which hookpm and Claude Code
 * 2.1.332 disagree, by `<corpus folder> | <fact>`, with the reason; docs/design/decisions.md
 * ("The corpus side by side with Claude Code") lists them for users.
 */
export const DIFFERENCES: Readonly<Record<string, string>> = {
  'EveryInc__compound-engineering-plugin__compounding-engineering_at_77de729 | accepted':
    'P2: hookpm keeps and ignores the manifest fields it does not use (`dependencies` an object, `commands`/`agents` of another shape, `repository` an object); Claude Code refuses the plugin over them',
  'obra__superpowers__superpowers_at_534e5bb | accepted':
    'P4: hookpm refuses a plugin whose hooks/hooks.json is not JSON; Claude Code installs it and loads none of its hooks',
  'EveryInc__compound-engineering-plugin__fixture-sample-plugin | hooks PostToolUse':
    'P4: its PostToolUse handlers are type "prompt" and "agent", which hookpm never runs; Claude Code runs them',
  'obra__superpowers__superpowers_at_1af9f57 | hooks PreCompact':
    'P4: its only PreCompact handler is type "agent", which hookpm never runs; Claude Code runs it',
  'obra__superpowers__superpowers_at_4b3aff5 | hooks SessionStart':
    'P4: its only handler is type "shell" with no command, an inert entry in hookpm; Claude Code lists the event as hooked and runs nothing on it (no command ran in the turn on either side)',
};
