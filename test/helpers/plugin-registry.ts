/**
 * A plugin registry for install tests: an index (registry.md section 2) and its tarballs served by
 * node:http on 127.0.0.1, each path answerable by a custom handler (to misbehave), and plugins
 * packed at test time with hookpm's own `packPlugin` so their index entries are exact.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packPlugin } from '../../src/publish/pack.js';
import { writeTree, type TreeFile } from '../store/plugin-tree.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface VersionEntry {
  tarball: string;
  integrity: string;
  size?: number;
  events?: string[];
  surfaceHash?: string;
  deprecated?: string;
}

export interface ServedRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The index served at /index.json (mutable: change it and it is served). */
  index: { formatVersion: 1; name: string; plugins: Record<string, IndexPluginDoc> };
  /** Bytes served at a path (`/tarballs/x.tgz`). */
  files: Map<string, Buffer>;
  /** A handler that replaces the default answer for a path. */
  handlers: Map<string, Handler>;
  /** Every request path, in order. */
  requests: string[];
  /** Adds a version (its tarball served at /tarballs/<name>-<version>.tgz), and makes it `latest` unless `latest: false`. */
  publish: (
    name: string,
    version: string,
    bytes: Buffer,
    entry?: Partial<VersionEntry> & { latest?: boolean },
  ) => VersionEntry;
  close: () => Promise<void>;
}

export interface IndexPluginDoc {
  description?: string;
  keywords: string[];
  distTags: Record<string, string>;
  versions: Record<string, VersionEntry>;
}

export async function startPluginRegistry(name = 'acme'): Promise<ServedRegistry> {
  const files = new Map<string, Buffer>();
  const handlers = new Map<string, Handler>();
  const requests: string[] = [];
  const registry = {
    index: { formatVersion: 1 as const, name, plugins: {} as Record<string, IndexPluginDoc> },
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(path);
    const custom = handlers.get(path);
    if (custom !== undefined) return custom(req, res);
    if (path === '/index.json') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify(served.index));
    }
    const bytes = files.get(path);
    if (bytes === undefined) {
      res.statusCode = 404;
      return res.end();
    }
    res.setHeader('content-length', String(bytes.length));
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const served: ServedRegistry = {
    url: `http://127.0.0.1:${address.port}/`,
    index: registry.index,
    files,
    handlers,
    requests,
    publish: (plugin, version, bytes, extra = {}) => {
      const { latest, ...rest } = extra;
      const entry: VersionEntry = {
        tarball: `tarballs/${plugin}-${version}.tgz`,
        integrity: sriOf(bytes),
        size: bytes.length,
        ...rest,
      };
      files.set(`/${entry.tarball}`, bytes);
      const plugins = served.index.plugins;
      if (!Object.hasOwn(plugins, plugin))
        plugins[plugin] = { keywords: [], distTags: {}, versions: {} };
      const doc = plugins[plugin] as IndexPluginDoc;
      doc.versions[version] = entry;
      if (latest !== false) doc.distTags['latest'] = version;
      return entry;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return served;
}

export function sriOf(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/** A packed plugin: the tarball bytes and the exact index entry fields hookpm pack computes. */
export interface PackedPlugin {
  bytes: Buffer;
  integrity: string;
  events: string[];
  surfaceHash: string;
}

/** Packs the plugin made of `files` with hookpm's own packPlugin (in a temporary directory). */
export async function packFiles(files: Record<string, TreeFile>): Promise<PackedPlugin> {
  const dir = await mkdtemp(join(tmpdir(), 'hookpm-pack-'));
  try {
    await writeTree(join(dir, 'src'), files);
    const packed = await packPlugin(join(dir, 'src'), { outDir: join(dir, 'out') });
    return {
      bytes: await readFile(packed.file),
      integrity: packed.integrity,
      events: packed.events,
      surfaceHash: packed.surfaceHash,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A plugin's files: manifest and one hooks document, one handler per given event and command. */
export function pluginTree(
  name: string,
  version: string,
  hooks: Record<string, string[]> = { PreToolUse: ['echo check'] },
): Record<string, TreeFile> {
  const doc: Record<string, unknown> = {};
  for (const [event, commands] of Object.entries(hooks))
    doc[event] = [{ hooks: commands.map((command) => ({ type: 'command', command })) }];
  return {
    '.claude-plugin/plugin.json': { json: { name, version, description: `${name} plugin` } },
    'hooks/hooks.json': { json: { hooks: doc } },
  };
}

/** Packs `pluginTree(...)` and publishes it with its events and surfaceHash. */
export async function publishPlugin(
  registry: ServedRegistry,
  name: string,
  version: string,
  hooks?: Record<string, string[]>,
  extra: Partial<VersionEntry> & { latest?: boolean } = {},
): Promise<PackedPlugin> {
  const packed = await packFiles(pluginTree(name, version, hooks));
  registry.publish(name, version, packed.bytes, {
    events: packed.events,
    surfaceHash: packed.surfaceHash,
    ...extra,
  });
  return packed;
}

/**
 * Packs the plugin made of `files`, with the paths in `executable` made 0755 first, and publishes
 * it as `name` `version` with its events and surfaceHash.
 */
export async function publishTree(
  registry: ServedRegistry,
  name: string,
  version: string,
  files: Record<string, TreeFile>,
  executable: readonly string[] = [],
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'hookpm-pack-'));
  try {
    await writeTree(join(dir, 'src'), files);
    for (const path of executable) await chmod(join(dir, 'src', ...path.split('/')), 0o755);
    const packed = await packPlugin(join(dir, 'src'), { outDir: join(dir, 'out') });
    registry.publish(name, version, await readFile(packed.file), {
      events: packed.events,
      surfaceHash: packed.surfaceHash,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
