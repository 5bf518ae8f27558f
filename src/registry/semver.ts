import semver from 'semver';

/**
 * The one import of the semver package (a CommonJS module): every ES module that imported it
 * would get a namespace copy of its ~50 exports in the bundled CLI, built when that module first
 * runs, and eleven of them are on the path of an install (bench/install.bench.mjs).
 */
export default semver;
