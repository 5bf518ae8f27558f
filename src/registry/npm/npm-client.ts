import { execFile } from 'node:child_process';
import { HookpmError } from '../../errors.js';
import { parseJson } from '../../json/parse-json.js';
import { fetchBytes } from '../http/http.js';
import {
  npmDocumentUrl,
  parseNpmDocument,
  type NpmDocument,
  type NpmPick,
} from './npm-document.js';
import { checkUrl, redactUrl } from '../http/url-policy.js';

export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';
/** Package documents of plugins are small; the abbreviated form of a large package stays far below. */
export const NPM_DOCUMENT_MAX_BYTES = 16 * 1024 * 1024;
const NPM_CONFIG_TIMEOUT_MS = 10_000;

export interface NpmRegistryOptions {
  env: Record<string, string | undefined>;
  /** Where `npm config get registry` runs (a project's .npmrc counts). */
  cwd: string;
}

/**
 * The npm registry's base URL (docs/reference/rules/registry.md#registry-kinds):
 * HOOKPM_NPM_REGISTRY, else what `npm config get registry` prints (run once, no shell, with a
 * timeout), else https://registry.npmjs.org/. Always ends in `/`; checked by url-policy
 * (E_INSECURE_URL for plain http off loopback).
 */
export async function resolveNpmRegistry(opts: NpmRegistryOptions): Promise<string> {
  const configured = opts.env.HOOKPM_NPM_REGISTRY;
  const found =
    configured !== undefined && configured !== ''
      ? configured
      : ((await npmConfigRegistry(opts)) ?? DEFAULT_NPM_REGISTRY);
  const base = found.endsWith('/') ? found : `${found}/`;
  checkUrl(base, 'index');
  return base;
}

function npmConfigRegistry(opts: NpmRegistryOptions): Promise<string | null> {
  return new Promise((done) => {
    execFile(
      'npm',
      ['config', 'get', 'registry'],
      {
        cwd: opts.cwd,
        env: opts.env,
        timeout: NPM_CONFIG_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        windowsHide: true,
      },
      (error, stdout) => {
        const text = String(stdout).trim();
        done(error === null && /^https?:\/\/\S+$/.test(text) ? text : null);
      },
    );
  });
}

/** Fetches and parses `<registry>/<package>` (abbreviated form preferred). */
export async function fetchNpmDocument(registry: string, pkg: string): Promise<NpmDocument> {
  const url = npmDocumentUrl(registry, pkg);
  const shown = redactUrl(url);
  const result = await fetchBytes(url, {
    purpose: 'index',
    maxBytes: NPM_DOCUMENT_MAX_BYTES,
    headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
  });
  if (result.status !== 200) throw new Error('Assertion failed: 304 without a conditional request');
  const json = parseJson(result.body.toString('utf8'), shown);
  if (!json.ok) {
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${shown}:${json.line}:${json.column}: the package document is not valid JSON: ${json.message}`,
      { url: shown },
    );
  }
  return parseNpmDocument(json.value, pkg, shown);
}

/**
 * The picked version's tarball URL if hookpm may fetch it: allowed by url-policy, and a `file:`
 * URL only from a `file:` registry (E_INSECURE_URL otherwise).
 */
export function checkNpmTarballUrl(pick: NpmPick, registry: string): string {
  const url = checkUrl(pick.tarball, 'tarball');
  if (url.protocol === 'file:' && !registry.startsWith('file:')) {
    throw new HookpmError(
      'E_INSECURE_URL',
      `the package document names a local tarball ${redactUrl(pick.tarball)}; only a file: registry may`,
      {
        url: redactUrl(pick.tarball),
      },
    );
  }
  return url.href;
}
