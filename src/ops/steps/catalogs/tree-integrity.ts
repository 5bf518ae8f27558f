import { integrityOf } from '../../../registry/integrity.js';
import { collectPackFiles } from '../../../publish/pack-files.js';
import { TREE_LIMITS } from '../../../store/tar/tarball-rules.js';
import { createTarGz } from '../../../store/tar/tar-write.js';

/**
 * The integrity hookpm records for a plugin that came as a tree (a marketplace directory or a git
 * checkout), not as a published tarball: `sha512-` of the tarball `hookpm pack` would make of it
 * (pack-files.ts and tar-write.ts: sorted files, fixed times, owners and modes, `.git` left out),
 * so the same files always give the same integrity, wherever and whenever they were checked out.
 * Bounded by the tree limits (tarball-rules.ts TREE_LIMITS), which the caller checked on the
 * source with measureTree (tree-size.ts).
 */
export async function treeIntegrity(dir: string): Promise<string> {
  const files = await collectPackFiles(dir, TREE_LIMITS);
  const bytes = createTarGz(
    files.map((f) => ({ path: `package/${f.path}`, mode: f.mode, data: f.data })),
  );
  return integrityOf(bytes);
}

/** The first 12 hex digits of an integrity's digest, for versions of unversioned trees. */
export function shortDigest(integrity: string): string {
  const base64 = integrity.replace(/^sha512-/, '');
  return Buffer.from(base64, 'base64').toString('hex').slice(0, 12);
}
