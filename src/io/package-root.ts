import { join } from 'node:path';

/**
 * The package's root directory (where package.json and registry-fixtures/ are). This file sits two
 * levels below it both compiled (dist/io/) and bundled (dist/bundle/, test/tools/bundle-cli.mjs),
 * so the same relative step finds it from either.
 */
export const PACKAGE_ROOT = join(import.meta.dirname, '..', '..');
