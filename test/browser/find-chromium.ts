/**
 * The browser the browser tests drive: Debian's chromium (playwright-core never downloads one),
 * required through test/helpers/system-package.ts: `findChromium` returns its path, installing the
 * `chromium` package first when it is missing and this process may (root, with apt-get on PATH);
 * otherwise it throws naming the exact command to run, and never returns "skip".
 */
import {
  requireTool,
  type RequireToolOptions,
  type SystemTool,
} from '../helpers/system-package.js';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Overrides the browser's path (another build, or a missing path to test the failure). */
export const CHROMIUM_ENV = 'HOOKPM_TEST_CHROMIUM';

export interface FindChromiumOptions extends RequireToolOptions {
  /** Default: $HOOKPM_TEST_CHROMIUM, else /usr/bin/chromium. */
  path?: string;
}

/** chromium as a system tool: at `path`, from the Debian package `chromium`. */
export function chromiumTool(path: string): SystemTool {
  return {
    command: 'chromium',
    package: 'chromium',
    path,
    neededBy: 'the browser tests',
    overrideEnv: CHROMIUM_ENV,
  };
}

export function findChromium(opts: FindChromiumOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  return requireTool(chromiumTool(opts.path ?? (env[CHROMIUM_ENV] || DEFAULT_CHROMIUM)), opts);
}
