/**
 * Preloaded into a hookpm child (`NODE_OPTIONS=--require <this file>`): the child kills itself
 * (SIGKILL) right before it renames anything onto a path that contains
 * HOOKPM_TEST_KILL_BEFORE_RENAME_TO, as a crash at that instant would. Both names leave the
 * environment first, so no process the child starts inherits them.
 */
'use strict';
const fs = require('node:fs');

const target = process.env.HOOKPM_TEST_KILL_BEFORE_RENAME_TO;
delete process.env.HOOKPM_TEST_KILL_BEFORE_RENAME_TO;
delete process.env.NODE_OPTIONS;

function killAt(to) {
  if (target && String(to).includes(target)) process.kill(process.pid, 'SIGKILL');
}
const renameSync = fs.renameSync;
fs.renameSync = (from, to) => {
  killAt(to);
  return renameSync(from, to);
};
const rename = fs.promises.rename;
fs.promises.rename = (from, to) => {
  killAt(to);
  return rename(from, to);
};
