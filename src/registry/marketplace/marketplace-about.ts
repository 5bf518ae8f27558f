import type { PluginAbout } from '../../plugin/manifest.js';
import { describeCapabilities, normalizeCapabilities } from '../../plugin/capabilities.js';
import { escapeHtml } from './marketplace-surface.js';

/**
 * `value` as an absolute http(s) URL to link to, or null: any other scheme (`javascript:`,
 * `data:`, `file:`), a relative reference, credentials in the URL or a control character is never
 * made a link, so a manifest cannot make the page run or open something else.
 */
export function safeHttpUrl(value: string): string | null {
  if (/[\u0000-\u0020\u007f-\u009f]/.test(value.trim())) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}

/**
 * A manifest `repository` (a string or `{type, url}`, as in package.json) as a web URL: `git+https:`
 * and a trailing `.git` are dropped, `github:owner/repo` and `owner/repo` are GitHub's; null when
 * no http(s) URL comes out.
 */
export function repositoryUrl(repository: PluginAbout['repository']): string | null {
  const raw =
    typeof repository === 'string'
      ? repository
      : typeof repository?.['url'] === 'string'
        ? repository['url']
        : null;
  if (raw === null) return null;
  const shorthand = /^(?:github:)?([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/.exec(raw.trim());
  const candidate = shorthand
    ? `https://github.com/${shorthand[1]}`
    : raw.trim().replace(/^git\+(?=https?:)/, '');
  const url = safeHttpUrl(candidate);
  return url === null ? null : url.replace(/\.git$/, '');
}

export interface AuthorShown {
  name: string;
  url: string | null;
}

/** `author` as a string (`Name <email> (url)`, npm's form) or `{name, url?}`; null when it has no name. */
export function authorOf(author: PluginAbout['author']): AuthorShown | null {
  if (author === undefined) return null;
  if (typeof author === 'string') {
    const parts = /^([^<(]*?)\s*(?:<[^>]*>)?\s*(?:\(([^)]*)\))?\s*$/.exec(author);
    const name = (parts?.[1] ?? author).trim();
    const url = parts?.[2] === undefined ? null : safeHttpUrl(parts[2]);
    return name === '' ? null : { name, url };
  }
  const name = author.name.trim();
  const url = typeof author.url === 'string' ? safeHttpUrl(author.url) : null;
  return name === '' ? null : { name, url };
}

function link(href: string, text: string, cls: string): string {
  return `<a class="${cls}" href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank">${escapeHtml(text)}</a>`;
}

/**
 * The plugin's author, license, homepage and repository as one line of the page, each only when
 * the manifest has it; links only for http(s) URLs (a homepage that is not one is not shown, an
 * author without one is plain text). Empty when there is nothing to show.
 */
export function renderAbout(about: PluginAbout): string {
  const parts: string[] = [];
  const author = authorOf(about.author);
  if (author !== null)
    parts.push(
      `<span class="author">by ${author.url === null ? escapeHtml(author.name) : link(author.url, author.name, 'author-link')}</span>`,
    );
  if (about.license !== undefined && about.license.trim() !== '')
    parts.push(`<span class="license">${escapeHtml(about.license.trim())}</span>`);
  const homepage = about.homepage === undefined ? null : safeHttpUrl(about.homepage);
  if (homepage !== null) parts.push(link(homepage, 'homepage', 'homepage'));
  const repository = repositoryUrl(about.repository);
  if (repository !== null) parts.push(link(repository, 'repository', 'repository'));
  return parts.length === 0 ? '' : `<p class="about">${parts.join(' · ')}</p>`;
}

/** Z1: what the plugin's hooks may do, as review says it (security.md#confinement). */
export function renderConfinement(capabilities: PluginAbout['capabilities']): string {
  const text = describeCapabilities(
    capabilities === undefined ? null : normalizeCapabilities(capabilities),
  );
  const cls = capabilities === undefined ? 'confinement unconfined' : 'confinement';
  return `<p class="${cls}">confinement: ${escapeHtml(text)}</p>`;
}
