import clean from 'semver/functions/clean.js';
import compare from 'semver/functions/compare.js';
import eq from 'semver/functions/eq.js';
import gt from 'semver/functions/gt.js';
import gte from 'semver/functions/gte.js';
import lt from 'semver/functions/lt.js';
import prerelease from 'semver/functions/prerelease.js';
import rcompare from 'semver/functions/rcompare.js';
import satisfies from 'semver/functions/satisfies.js';
import valid from 'semver/functions/valid.js';
import minVersion from 'semver/ranges/min-version.js';
import validRange from 'semver/ranges/valid.js';

/**
 * The one import of the semver package (CommonJS), as the functions hookpm uses, each from its
 * own module: the package's index loads all of its ~50 modules (one builds comparators as it
 * loads), about 0.7 ms at every start of an install, which uses two of them
 * (bench/install.bench.mjs). One object rather than named exports: in the bundled CLI every ES
 * module importing a CommonJS one would get its own copy of the namespace.
 */
const semver = {
  clean,
  compare,
  eq,
  gt,
  gte,
  lt,
  minVersion,
  prerelease,
  rcompare,
  satisfies,
  valid,
  validRange,
};

export default semver;
