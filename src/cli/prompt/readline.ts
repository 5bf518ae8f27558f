import type { Interface, ReadLineOptions } from 'node:readline';

/**
 * readline.createInterface, with node:readline loaded at the first question only (about 1.5 ms,
 * and most commands ask none).
 */
export function createReadline(options: ReadLineOptions): Interface {
  return process.getBuiltinModule('node:readline').createInterface(options);
}
