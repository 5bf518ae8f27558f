import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How git sees `dir`: a `work-tree` (a `.git` entry inside), a `bare` repository (`HEAD` and
 * `objects/`), or null for neither. A `file:` marketplace location that is either is cloned, not
 * read in place (read-marketplace.ts, marketplace-catalog.ts, ops/registries/add.ts and a
 * project's registries, project-registries.ts, decide alike). A few `stat`s, so synchronous.
 */
export function gitRepositoryKind(dir: string): 'work-tree' | 'bare' | null {
  if (existsSync(join(dir, '.git'))) return 'work-tree';
  if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) return 'bare';
  return null;
}
