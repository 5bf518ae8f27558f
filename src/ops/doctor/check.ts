/** How bad one finding of `hookpm doctor` is: an error makes the report fail (exit 1). */
export type CheckStatus = 'ok' | 'warning' | 'error';

/**
 * One finding of `hookpm doctor`: `name` says what was looked at (`state`, `lock`,
 * `plugin:guard@local`, `registry:examples`, ...), `code` (when present) names the problem found
 * (`plugin_tampered`, `state_corrupt`, ...), `fix` is the command or the steps that repair it.
 */
export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  message: string;
  code?: string;
  fix?: string;
  /** The files or directories the finding is about, when there are several (leftovers). */
  paths?: string[];
}

/** `hookpm doctor --json` (cli.md: checks the store, state, locks, fingerprints and registries). */
export interface DoctorReport {
  /** True when no check is an error. */
  ok: boolean;
  checks: DoctorCheck[];
}

export function okCheck(name: string, message: string): DoctorCheck {
  return { name, status: 'ok', message };
}

export function problem(
  name: string,
  status: 'warning' | 'error',
  message: string,
  extra: { code?: string; fix?: string } = {},
): DoctorCheck {
  return {
    name,
    status,
    message,
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.fix === undefined ? {} : { fix: extra.fix }),
  };
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
