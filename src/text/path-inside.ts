import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Whether `target` is `base` or below it, compared lexically (both resolved, no symlink followed:
 * callers that must not be led out by a link pass real paths).
 */
export function isInside(base: string, target: string): boolean {
  const rel = relative(resolve(base), resolve(target));
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
