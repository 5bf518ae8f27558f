import { realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { HookpmError } from '../../errors.js';
import { isInside } from '../../text/path-inside.js';

/** The folders of the output directory a build writes files into and removes files from. */
const WRITTEN_DIRS = ['tarballs'];
/** The sparse layout's folders, written too unless the build leaves the layout out. */
const SPARSE_DIRS = ['plugins', 'search'];

/**
 * Checks, before a build writes anything, that its output and its inputs stay apart (cli.md
 * registry build): the output directory is neither a sources directory (`sourceDirs`, the plugins
 * and history directories, whose subfolders the next build would pack as plugins) nor inside one
 * of its plugin sources (a folder not starting with `.`, whose tarball would then hold the
 * registry, growing with each build), and no sources directory is, or lies inside, a folder the
 * build writes in (`tarballs/`, and `plugins/` and `search/` unless `sparse` is false), where its
 * files would land among the sources. `sources` are the plugin sources themselves: one that is a
 * symlink is checked where it leads (the output must not lie inside it either). Paths are compared
 * once symlinks are resolved. Throws E_USAGE naming both.
 */
export async function checkSourcesApart(
  outDir: string,
  sourceDirs: readonly string[],
  sparse: boolean,
  sources: readonly string[] = [],
): Promise<void> {
  const out = await realOrResolved(outDir);
  for (const source of sources) {
    if (isInside(await realOrResolved(source), out))
      throw overlap(outDir, `it lies inside the plugin source ${source}, which packs it`);
  }
  const written = sparse ? [...WRITTEN_DIRS, ...SPARSE_DIRS] : WRITTEN_DIRS;
  for (const dir of sourceDirs) {
    const real = await realOrResolved(dir);
    if (real === out) throw overlap(outDir, `it is the plugin sources directory ${dir}`);
    const source = isInside(real, out) ? relative(real, out).split(sep)[0] : undefined;
    if (source !== undefined && !source.startsWith('.'))
      throw overlap(
        outDir,
        `it lies inside the plugin source ${join(dir, source)}, which packs it`,
      );
    for (const name of written) {
      if (isInside(join(out, name), real))
        throw overlap(
          outDir,
          `the plugin sources directory ${dir} is (or is inside) its ${name}/ folder, where the build writes`,
        );
    }
  }
}

/** The real path of `path`, or of its nearest existing parent joined with the rest. */
async function realOrResolved(path: string): Promise<string> {
  const full = resolve(path);
  try {
    return await realpath(full);
  } catch {
    const parent = dirname(full);
    return parent === full ? full : join(await realOrResolved(parent), basename(full));
  }
}

function overlap(outDir: string, why: string): HookpmError {
  return new HookpmError('E_USAGE', `cannot build a registry into ${outDir}: ${why}`, {
    file: outDir,
    hint: 'Give --out a directory apart from the plugin sources, e.g. --out ./public beside ./plugins.',
  });
}
