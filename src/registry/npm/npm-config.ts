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

/** npm's `${VAR}` substitution (@npmcli/config env-replace). */
export function replaceEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return text.replace(
    /(?<!\\)(\\*)\$\{([^${}?]+)(\?)?\}/g,
    (whole, escapes: string, name: string, optional: string | undefined) => {
      if (escapes.length % 2 === 1) return whole.slice((escapes.length + 1) / 2);
      const value = env[name] ?? (optional === '?' ? '' : `\${${name}}`);
      return escapes.slice(escapes.length / 2) + value;
    },
  );
}
