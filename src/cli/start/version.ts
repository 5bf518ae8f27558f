import { readPackageVersion } from '../../io/package-root.js';

/** The version of package.json, the one `hookpm --version` prints on every path. */
export function readVersion(): string {
  return readPackageVersion();
}
