/** cli.md `info`: what the fixture registry (registry-fixtures/) says of guard, before any install. */
export const GUARD_INFO = {
  id: 'guard@acme',
  name: 'guard',
  registry: 'acme',
  description: 'Blocks destructive shell commands',
  distTags: { latest: '1.2.0' },
  versions: ['1.2.0', '1.1.0'],
  latest: { version: '1.2.0', events: ['PreToolUse', 'SessionStart'] },
  installed: null,
};

/** cli.md `search`: guard's row in the results. */
export const GUARD_HIT = {
  id: 'guard@acme',
  name: 'guard',
  registry: 'acme',
  version: '1.2.0',
  description: 'Blocks destructive shell commands',
  events: ['PreToolUse', 'SessionStart'],
};
