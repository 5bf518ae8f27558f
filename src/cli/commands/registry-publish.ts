import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import { globalOptions } from '../global-options.js';
import type { ServedRequest } from '../../registry/http/http-server.js';
import { escapeControl, printErrorLine, printJson, printLine } from '../render/render.js';
import { shellWord } from '../../text/shell-word.js';

/**
 * `hookpm registry build` and `hookpm registry serve` (docs/reference/rules/cli.md#commands), added
 * to the `registry` command that registry.ts makes (or made here when it is absent), so the two
 * files never touch.
 */
export function register(program: Command): void {
  const registry =
    program.commands.find((c) => c.name() === 'registry') ??
    program.command('registry').description('manage and publish registries');
  registry
    .command('build <plugins-dir>')
    .description(
      'build a static registry: registry.json and plugins/ (sparse), index.json, tarballs/ and index.html',
    )
    .requiredOption('--out <dir>', 'the registry directory to write')
    .option('--name <name>', 'the registry name (default: the name of the --out directory)')
    .option('--description <text>', 'a description of the registry')
    .option('--history <dir>', 'older plugin versions: each subdirectory is one more plugin source')
    .option(
      '--published-at <date>',
      'publishedAt of each version the index does not record yet (default: SOURCE_DATE_EPOCH, else now)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm registry build ./plugins --out ./public --name acme\n  $ hookpm registry serve ./public\n',
    )
    .action(async (pluginsDir: string, options: BuildFlags, command: Command) =>
      build(pluginsDir, options, command),
    );
  registry
    .command('serve <dir>')
    .description('serve a registry directory over HTTP on 127.0.0.1 until interrupted')
    .option('--port <n>', 'the port (default: any free one)', parsePort)
    .option('-q, --quiet', 'do not log each request on stderr')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm registry serve ./public --port 8080\n  $ hookpm registry add local-dev http://127.0.0.1:8080/registry.json\n',
    )
    .action(async (dir: string, options: ServeFlags, command: Command) =>
      serve(dir, options, command),
    );
}

interface BuildFlags {
  out: string;
  name?: string;
  description?: string;
  history?: string;
  publishedAt?: string;
}

async function build(pluginsDir: string, flags: BuildFlags, command: Command): Promise<void> {
  const globals = globalOptions(command);
  const { buildRegistry } = await import('../../ops/registries/build.js');
  // policy.md A22: a version the index does not record yet is published now unless told otherwise.
  const publishedAt = publishedAtOption(flags.publishedAt) ?? new Date().toISOString();
  const result = await buildRegistry({
    pluginsDir: resolve(globals.cwd, pluginsDir),
    outDir: resolve(globals.cwd, flags.out),
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.description === undefined ? {} : { description: flags.description }),
    ...(flags.history === undefined ? {} : { historyDir: resolve(globals.cwd, flags.history) }),
    publishedAt,
  });
  const plugins = Object.entries(result.index.plugins).map(([name, plugin]) => ({
    name,
    latest: plugin.distTags['latest'] ?? null,
    versions: Object.keys(plugin.versions),
  }));
  if (globals.json) {
    return printJson({
      name: result.name,
      outDir: result.outDir,
      plugins,
      tarballs: result.tarballs,
      removed: result.removed,
    });
  }
  const versions = plugins.reduce((n, p) => n + p.versions.length, 0);
  printLine(
    `built registry ${result.name}: ${plugins.length} plugin(s), ${versions} version(s) in ${escapeControl(result.outDir)}`,
  );
  for (const p of plugins) printLine(`  ${p.name}  ${p.versions.join(', ')}`);
  for (const removed of result.removed) printLine(`  removed stale ${escapeControl(removed)}`);
  printLine(
    `open ${escapeControl(resolve(result.outDir, 'index.html'))} or run: hookpm registry serve ${escapeControl(shellWord(result.outDir))}`,
  );
  if (result.sparse !== null)
    printLine(
      `sparse layout: ${result.sparse.written.length} file(s) written, ${result.sparse.unchanged} unchanged, ${result.sparse.removed.length} removed; users add it as: hookpm registry add ${result.name} <url>/registry.json`,
    );
}

interface ServeFlags {
  port?: number;
  quiet?: boolean;
}

async function serve(dir: string, options: ServeFlags, command: Command): Promise<void> {
  const globals = globalOptions(command);
  const { serveRegistry } = await import('../../registry/http/http-server.js');
  const server = await serveRegistry(resolve(globals.cwd, dir), {
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.quiet === true ? {} : { onRequest: (r) => printErrorLine(requestLine(r)) }),
  });
  if (globals.json) printJson({ url: server.url, port: server.port });
  else
    printLine(
      `serving ${escapeControl(resolve(globals.cwd, dir))} at ${server.url} (Ctrl-C to stop)`,
    );
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
}

/** One request log line (stderr): `GET /index.json 200 1234 B 3 ms`; the path with controls escaped. */
export function requestLine(r: ServedRequest): string {
  const ms = r.durationMs < 10 ? r.durationMs.toFixed(1) : String(Math.round(r.durationMs));
  return `${escapeControl(r.method)} ${escapeControl(r.path)} ${r.status} ${r.bytes} B ${ms} ms`;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new InvalidArgumentError(
      `expected a port number 0-65535, found ${JSON.stringify(value)}`,
    );
  }
  return port;
}

/** `--published-at`, else SOURCE_DATE_EPOCH (reproducible-builds.org), else undefined. */
export function publishedAtOption(flag: string | undefined): string | undefined {
  const env = process.env['SOURCE_DATE_EPOCH'];
  return flag ?? (env === undefined || env === '' ? undefined : env);
}
