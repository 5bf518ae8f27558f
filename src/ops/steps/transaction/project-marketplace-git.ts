import { relative, sep } from 'node:path';
import { HookpmError, isHookpmError } from '../../../errors.js';
import { isLockedCommit, isLockedLocation } from '../../../project/lockfile.js';
import { resolveEntryPath } from '../../../registry/marketplace/entry-path.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { readMarketplace } from '../catalogs/read-marketplace.js';
import { environmentOf } from '../context/operation-context.js';
import { requireNetwork } from '../context/network.js';
import type { ProjectScope } from './project-scope.js';
import { cannotHold } from './cannot-hold.js';

/** What a project can hold, for the refusals below. */
const HOLDS =
  'A project holds a plugin of a git marketplace whose entry is a "./" directory of its repository; hookpm.lock pins the commit.';

/**
 * Where a project's marketplace plugin comes from, as hookpm.lock records it: `resolved`, the
 * entry's directory relative to the marketplace root (`plugins/guard`), and, for a git
 * marketplace (J12), the commit its repository was read at.
 */
export interface MarketplaceEntry {
  resolved: string;
  commit?: string;
  /**
   * J13: the entry's own source is a git repository, `resolved` being its URL (and
   * `#<subdirectory>`); the lock's `commit` is then that repository's, known once it is cloned.
   */
  entryRepository?: true;
}

/**
 * docs/reference/rules/registry.md#j12: the entry of `name` in the git marketplace `registry` at
 * `location` (an `https:`, loopback `http:` or `file:` URL ending in `.git`), read from a shallow
 * clone of `commit` (the lock's) or of the remote's HEAD. A URL holding credentials is E_USAGE
 * before anything is fetched: hookpm.json and hookpm.lock are committed, so it would be written
 * for everyone to read. The entry must be a `./` directory of the repository (E_USAGE for a git or
 * npm source: a teammate's hookpm could not be held to the same bytes by the lock); a locked
 * commit the remote no longer serves is E_GIT naming it. The clone is removed before returning.
 */
export async function gitMarketplaceEntryOf(
  scope: ProjectScope,
  id: string,
  registry: string,
  name: string,
  location: string,
  commit?: string,
): Promise<MarketplaceEntry> {
  const shown = redactUrl(location);
  const url = new URL(location);
  if (url.username !== '' || url.password !== '')
    throw new HookpmError(
      'E_USAGE',
      `${id}: a project cannot list the marketplace ${registry} at ${shown}: its URL holds credentials, which hookpm.json would publish; nothing was written`,
      {
        plugin: id,
        registry,
        location: shown,
        hint: `Add the registry without credentials in its URL (\`hookpm registry remove ${registry}\`, then \`hookpm registry add ${registry} <url>\`): hookpm sends a token for a private host from the environment or settings.json's git settings (K6).`,
      },
    );
  if (url.protocol !== 'file:')
    requireNetwork(scope.ctx, `the marketplace ${registry} must be fetched from ${shown}`, {
      plugin: id,
    });
  const { env, cwd } = environmentOf(scope.ctx);
  const read = await readMarketplace(location, {
    cwd,
    env,
    paths: scope.ctx.paths,
    ...(commit === undefined ? {} : { sha: commit }),
  }).catch((error: unknown) => {
    if (commit === undefined || !isHookpmError(error, 'E_GIT')) throw error;
    throw new HookpmError(
      'E_GIT',
      `${id}: cannot read the marketplace ${registry} (${shown}) at the commit ${commit} hookpm.lock pins: ${error.message}`,
      {
        plugin: id,
        registry,
        url: shown,
        commit,
        hint: `Where the repository no longer has that commit (a rewritten history), \`hookpm install --project ${id}\` locks what it lists now; review the change and commit hookpm.lock.`,
      },
    );
  });
  try {
    if (read.kind !== 'git' || read.roots === null || read.commit === undefined)
      throw cannotHold(id, `its marketplace ${shown} is not a git repository`, HOLDS);
    if (!isLockedCommit(read.commit))
      throw cannotHold(id, `its repository's commit id ${read.commit} is not a sha1 id`, HOLDS);
    const item = read.marketplace.plugins.find((p) => p.name === name);
    if (item === undefined)
      throw new HookpmError(
        'E_NOT_FOUND',
        `${id}: the marketplace ${registry} has no such plugin (commit ${read.commit})`,
        { plugin: id, registry },
      );
    if (item.source.kind !== 'path')
      throw cannotHold(
        id,
        `its source is ${item.source.kind}, not a directory of the marketplace`,
        HOLDS,
      );
    const dir = resolveEntryPath(read.roots, item.source.path);
    const resolved = dir === null ? '' : relative(read.roots.root, dir).split(sep).join('/');
    if (dir === null || !isLockedLocation(resolved))
      throw cannotHold(
        id,
        `its directory ./${item.source.path} is not below the marketplace root`,
        HOLDS,
      );
    return { resolved, commit: read.commit };
  } finally {
    await read.dispose();
  }
}
