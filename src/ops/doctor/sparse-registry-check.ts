import { readCachedDocument, sparseCacheDir } from '../../registry/sparse/cache-sparse.js';
import { parseRoot, ROOT_FILE } from '../../registry/sparse/sparse-format.js';
import { indexCacheDir } from '../../store/paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import { isHookpmError } from '../../errors.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import type { RegistryEntry } from '../steps/catalogs/defaults.js';

/**
 * registry.md N11: a network registry with the sparse layout is checked by its cached root
 * document (its plugin documents are cached one by one as they are used); no network access.
 */
export async function checkSparseRegistry(
  paths: StorePaths,
  entry: RegistryEntry,
  name: string,
  where: string,
): Promise<DoctorCheck> {
  const dir = sparseCacheDir(indexCacheDir(paths), entry.name);
  const cached = await readCachedDocument(dir, ROOT_FILE, entry.record.location);
  const fix = `hookpm registry update ${entry.name}`;
  if (cached === null)
    return problem(name, 'warning', `${where}: no cached root document`, {
      code: 'registry_cache_invalid',
      fix,
    });
  try {
    const root = parseRoot(JSON.parse(cached.body.toString('utf8')), where);
    const count = plural(root.pluginCount, 'plugin');
    return okCheck(name, `${where}: cached root document valid (sparse layout, ${count})`);
  } catch (error) {
    if (!(error instanceof SyntaxError) && !isHookpmError(error)) throw error;
    return problem(name, 'warning', `${where}: the cached root document is damaged`, {
      code: 'registry_cache_invalid',
      fix,
    });
  }
}
