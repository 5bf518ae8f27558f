import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packPlugin } from '../../src/publish/pack.js';
import type { IndexPlugin, RegistryIndex } from '../../src/registry/indexes/index-schema.js';
import { sparseDocuments } from '../../src/registry/sparse/sparse-documents.js';

const FAKE_SRI = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
const FAKE_SURFACE = `sha256-${Buffer.alloc(32, 9).toString('base64')}`;

/** A generated plugin's index entry: never installed, so its tarball does not exist. */
export function generatedPlugin(i: number): { name: string; plugin: IndexPlugin } {
  const name = `${((i * 2654435761) >>> 0).toString(36)}-hooks-${i}`;
  const version = `1.${i % 7}.0`;
  return {
    name,
    plugin: {
      description: `Generated plugin number ${i}: guards shell commands for the scale tests`,
      keywords: ['generated', 'scale'],
      distTags: { latest: version },
      versions: {
        [version]: {
          tarball: `tarballs/${name}-${version}.tgz`,
          integrity: FAKE_SRI,
          size: 454,
          publishedAt: '2026-11-01T00:00:00Z',
          events: ['PreToolUse'],
          surfaceHash: FAKE_SURFACE,
        },
      },
    },
  };
}

/**
 * Writes a sparse registry of `count` plugins into `dir` directly (no build): `count - 1`
 * generated plugins and the real plugin packed from `source` (its tarball under `tarballs/`), the
 * only one that can be installed. Returns the real plugin's name. Fast: 20,000 plugins take about
 * a second, because only one tarball is made and the files are written synchronously (a promise
 * per file costs several times the CPU of the write).
 */
export async function writeSparseRegistry(
  dir: string,
  count: number,
  source: string,
): Promise<string> {
  const packed = await packPlugin(source, {
    outDir: join(dir, 'tarballs'),
    tarballPrefix: 'tarballs/',
    publishedAt: '2026-11-01T00:00:00Z',
  });
  const plugins: Record<string, IndexPlugin> = {};
  for (let i = 1; i < count; i += 1) {
    const { name, plugin } = generatedPlugin(i);
    plugins[name] = plugin;
  }
  plugins[packed.name] = {
    ...(packed.description === null ? {} : { description: packed.description }),
    keywords: packed.keywords,
    distTags: { latest: packed.version },
    versions: { [packed.version]: packed.entry },
  };
  const index: RegistryIndex = { formatVersion: 1, name: 'scale', plugins };
  const made = new Set<string>();
  for (const [path, body] of sparseDocuments(index)) {
    const file = join(dir, path);
    const parent = dirname(file);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(file, body);
  }
  return packed.name;
}
