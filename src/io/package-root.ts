import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The package's root directory (where package.json and registry-fixtures/ are). This file sits two
 * levels below it both compiled (dist/io/) and bundled (dist/bundle/, test/tools/bundle-cli.mjs),
 * so the same relative step finds it from either.
 */
export const PACKAGE_ROOT = join(import.meta.dirname, '..', '..');

/** The version of package.json: what a cache of hookpm's own results is valid for. */
export function readPackageVersion(): string {
  const text = readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
