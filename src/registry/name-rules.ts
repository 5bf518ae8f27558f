/**
 * Name shapes shared by install specs, indexes, npm package documents and marketplace sources.
 * npm package names: lower case, an optional `@scope/`, at most 214 characters
 * (https://docs.npmjs.com/cli/configuring-npm/package-json#name).
 */
const NPM_PACKAGE_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

export function isNpmPackageName(name: string): boolean {
  return name.length <= 214 && NPM_PACKAGE_NAME.test(name);
}

/** A dist-tag is a word (`latest`, `next`, `beta`); where a range may also stand, a range wins. */
export const DIST_TAG_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
