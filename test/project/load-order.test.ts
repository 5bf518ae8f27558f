/**
 * Where a project's plugins stand in the configuration order (engine.md S3 extended): project hooks
 * file, user hooks file, the user's plugins by id, then the project's plugins by id, whatever order
 * the sources arrive in.
 */
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../src/hooks/snapshot/snapshot.js';
import type { SourceDocument } from '../../src/hooks/types.js';

const stop = (command: string) => ({
  Stop: [{ matcher: null, hooks: [{ type: 'command' as const, command }] }],
});

function plugin(id: string, command: string, scope?: 'project'): SourceDocument {
  return {
    origin: 'plugin',
    file: 'hooks/hooks.json',
    config: stop(command),
    plugin: { id, root: `/store/${id}`, data: `/data/${id}`, ...(scope ? { scope } : {}) },
  };
}

describe('snapshot order with project plugins (S3)', () => {
  it('project file, user file, user plugins by id, then project plugins by id', () => {
    const snapshot = buildSnapshot({
      projectDir: '/p',
      sources: [
        plugin('alpha@r', 'project-alpha', 'project'),
        plugin('zeta@r', 'user-zeta'),
        { origin: 'user', file: '/h/.deepagents/hooks.json', config: stop('user-file') },
        plugin('beta@r', 'user-beta'),
        { origin: 'project', file: '/p/.deepagents/hooks.json', config: stop('project-file') },
        plugin('omega@r', 'project-omega', 'project'),
      ],
    });
    expect(snapshot.handlers.filter((h) => h.event === 'Stop').map((h) => h.command)).toEqual([
      'project-file',
      'user-file',
      'user-beta',
      'user-zeta',
      'project-alpha',
      'project-omega',
    ]);
  });
});
