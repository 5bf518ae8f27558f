import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../io/package-root.js';

/** The version of package.json, the one `hookpm --version` prints on every path. */
export function readVersion(): string {
  const text = readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
