/** One `.npmrc` layer: where it was read from, and its keys after `${VAR}` substitution. */
export interface NpmrcLayer {
  /** `env`, `project`, `user` or `global`. */
  source: 'env' | 'project' | 'user' | 'global';
  /** The file read (absent for `env`). */
  file?: string;
  values: Readonly<Record<string, string>>;
}

/** npm's configuration as far as hookpm reads it: layers, highest priority first. */
export interface NpmConfig {
  layers: readonly NpmrcLayer[];
  /** The first layer's value of `key`, or undefined. */
  get(key: string): string | undefined;
}

/** Thrown by replaceEnv when its substitutions pass the budget it was given. */
export class EnvExpansionTooLarge extends Error {
  constructor() {
    super('${VAR} substitutions over their budget');
    this.name = 'EnvExpansionTooLarge';
  }
}

/**
 * npm's `${VAR}` substitution (@npmcli/config env-replace). With `budget`, the characters the
 * substitutions bring in are taken from `budget.left`, shared across calls: past it,
 * EnvExpansionTooLarge is thrown before the text is built (a small file naming a large variable
 * many times would otherwise make a string of gigabytes).
 */
export function replaceEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  budget?: { left: number },
): string {
  return text.replace(
    /(?<!\\)(\\*)\$\{([^${}?]+)(\?)?\}/g,
    (whole, escapes: string, name: string, optional: string | undefined) => {
      if (escapes.length % 2 === 1) return whole.slice((escapes.length + 1) / 2);
      const value = env[name] ?? (optional === '?' ? '' : `\${${name}}`);
      if (budget !== undefined) {
        budget.left -= value.length;
        if (budget.left < 0) throw new EnvExpansionTooLarge();
      }
      return escapes.slice(escapes.length / 2) + value;
    },
  );
}
