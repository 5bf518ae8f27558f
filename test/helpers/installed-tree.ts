import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The installed tree of plugin `name` (its only version) in the default store under `home`, the
 * HOME a test's hookpm ran with: `<home>/hookpm/data/plugins/<name>-<id>/<version>`. For tests
 * that change an installed plugin's files behind hookpm's back.
 */
export function installedTree(home: string, name: string): string {
  const plugins = join(home, 'hookpm', 'data', 'plugins');
  const versions = join(
    plugins,
    readdirSync(plugins).find((d) => d.startsWith(`${name}-`))!,
  );
  return join(versions, readdirSync(versions)[0]!);
}
