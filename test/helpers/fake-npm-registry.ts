import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { integrityOf } from '../../src/registry/integrity.js';
import { createTarGz } from '../../src/store/tar/tar-write.js';

/** One published version: its files (under package/) and, optionally, a lying document. */
export interface FakeVersion {
  files: Readonly<Record<string, string>>;
  /**
   * Published integrity instead of the real one (`null`: none, only a sha1 shasum; a function: made
   * from the real one).
   */
  integrity?: string | null | ((real: string) => string);
  /** The version's `deprecated` message. */
  deprecated?: string;
  /** The tarball URL in the document instead of the server's own. */
  tarball?: string;
  /**
   * Another server's origin (`http://127.0.0.1:<port>/`): the tarball's own path answers 302 to the
   * same path there, as GitHub Packages sends downloads to its CDN.
   */
  redirect?: string;
}

export interface FakePackage {
  distTags: Record<string, string>;
  versions: Record<string, FakeVersion>;
}

/**
 * A fake npm registry on 127.0.0.1 answering as registry.npmjs.org does: `GET /<name>` (a scoped
 * name as `@scope%2fname`) is the package document with `dist-tags` and `versions[v].dist`
 * {tarball, integrity, shasum}; `GET /<name>/-/<file>.tgz` is the tarball, built at start. For
 * what a real registry will not serve (a lying integrity, a foreign tarball URL, hostile dist-tags,
 * a tarball changed under the same version) and for counting requests; an ordinary install from
 * npm is tested against a real Verdaccio (verdaccio.ts).
 */
/** `hookpm-plugin-quiet` 1.0.0: the plugin `quiet`, one Stop handler (`node -e 0`). */
export const QUIET_PACKAGE: FakePackage = {
  distTags: { latest: '1.0.0' },
  versions: {
    '1.0.0': {
      files: {
        'package.json': JSON.stringify({ name: 'hookpm-plugin-quiet', version: '1.0.0' }),
        '.claude-plugin/plugin.json': JSON.stringify({ name: 'quiet', version: '1.0.0' }),
        'hooks/hooks.json': JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: 'node -e 0' }] }] },
        }),
      },
    },
  },
};

export interface FakeNpmRegistry {
  url: string;
  /** The request headers of every request, in order, with its path. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startFakeNpmRegistry(
  packages: Readonly<Record<string, FakePackage>>,
): Promise<FakeNpmRegistry> {
  const tarballs = new Map<string, Buffer>();
  const redirects = new Map<string, string>();
  const requests: FakeNpmRegistry['requests'] = [];
  let base = '';
  const documentOf = (name: string, pkg: FakePackage): unknown => ({
    name,
    'dist-tags': pkg.distTags,
    versions: Object.fromEntries(
      Object.entries(pkg.versions).map(([version, v]) => {
        const file = `/${name}/-/${name.split('/').pop() ?? name}-${version}.tgz`;
        const bytes = tarballs.get(file) ?? Buffer.alloc(0);
        const integrity =
          v.integrity === undefined
            ? integrityOf(bytes)
            : typeof v.integrity === 'function'
              ? v.integrity(integrityOf(bytes))
              : v.integrity;
        const dist = {
          tarball: v.tarball ?? `${base}${file.slice(1)}`,
          shasum: 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
          ...(integrity === null ? {} : { integrity }),
        };
        return [
          version,
          {
            name,
            version,
            scripts: { postinstall: 'touch /tmp/hookpm-never-run' },
            dist,
            ...(v.deprecated === undefined ? {} : { deprecated: v.deprecated }),
          },
        ];
      }),
    ),
  });
  for (const [name, pkg] of Object.entries(packages)) {
    for (const [version, v] of Object.entries(pkg.versions)) {
      const files = Object.entries(v.files).map(([path, text]) => ({
        path: `package/${path}`,
        mode: 0o644,
        data: Buffer.from(text),
      }));
      const file = `/${name}/-/${name.split('/').pop() ?? name}-${version}.tgz`;
      tarballs.set(file, createTarGz(files));
      if (v.redirect !== undefined) redirects.set(file, new URL(file.slice(1), v.redirect).href);
    }
  }
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const moved = redirects.get(path);
    if (moved !== undefined) {
      res.writeHead(302, { location: moved });
      res.end();
      return;
    }
    const tarball = tarballs.get(path);
    if (tarball !== undefined) {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': tarball.length,
      });
      res.end(tarball);
      return;
    }
    const pkg = Object.hasOwn(packages, path.slice(1)) ? packages[path.slice(1)] : undefined;
    if (pkg === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"Not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.npm.install-v1+json' });
    res.end(JSON.stringify(documentOf(path.slice(1), pkg)));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  base = `http://127.0.0.1:${port}/`;
  return {
    url: base,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** A package with one published version, `version`, which is also `latest`. */
export function onlyVersion(version: string, files: Readonly<Record<string, string>>): FakePackage {
  return { distTags: { latest: version }, versions: { [version]: { files } } };
}
