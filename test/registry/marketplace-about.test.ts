import { describe, expect, it } from 'vitest';
import {
  authorOf,
  renderAbout,
  repositoryUrl,
  safeHttpUrl,
} from '../../src/registry/marketplace/marketplace-about.js';

describe('the marketplace page links of a manifest', () => {
  it.each([
    ['https://example.com/docs', 'https://example.com/docs'],
    ['http://example.com', 'http://example.com/'],
    ['  https://example.com/a  ', 'https://example.com/a'],
    ['https://example.com/a b', null],
    ['javascript:alert(1)', null],
    ['JAVASCRIPT:alert(1)', null],
    ['data:text/html,<script>', null],
    ['file:///etc/passwd', null],
    ['//example.com/x', null],
    ['example.com', null],
    ['https://user:secret@example.com/', null],
    ['https://exa\u0000mple.com/', null],
  ])('only an http(s) URL is linked: %j -> %j', (value, expected) => {
    expect(safeHttpUrl(value)).toBe(expected);
  });

  it.each([
    ['https://github.com/acme/x', 'https://github.com/acme/x'],
    ['git+https://github.com/acme/x.git', 'https://github.com/acme/x'],
    ['github:acme/x', 'https://github.com/acme/x'],
    ['acme/x', 'https://github.com/acme/x'],
    ['git@github.com:acme/x.git', null],
    ['git://github.com/acme/x.git', null],
  ])('a repository string %j links to %j', (value, expected) => {
    expect(repositoryUrl(value)).toBe(expected);
  });

  it('a repository object links by its url; one without a url links nowhere', () => {
    expect(repositoryUrl({ type: 'git', url: 'git+https://gitlab.com/a/b.git' })).toBe(
      'https://gitlab.com/a/b',
    );
    expect(repositoryUrl({ type: 'git' })).toBeNull();
    expect(repositoryUrl(undefined)).toBeNull();
  });

  it('an author string in npm form gives its name and http(s) URL, never its email', () => {
    expect(authorOf('Ada <ada@example.com> (https://ada.example)')).toEqual({
      name: 'Ada',
      url: 'https://ada.example/',
    });
    expect(authorOf('Ada (javascript:void)')).toEqual({ name: 'Ada', url: null });
    expect(authorOf({ name: 'Ada', url: 'ftp://x' })).toEqual({ name: 'Ada', url: null });
    expect(authorOf({ name: '  ' })).toBeNull();
  });

  it('renders only what the manifest has, escaped, and nothing for an empty manifest', () => {
    expect(renderAbout({})).toBe('');
    expect(renderAbout({ license: 'MIT' })).toBe(
      '<p class="about"><span class="license">MIT</span></p>',
    );
    const html = renderAbout({
      author: { name: '<i>x</i>' },
      homepage: 'https://x.example/?a="1"&b=<2>',
    });
    expect(html).toContain('by &lt;i&gt;x&lt;/i&gt;');
    expect(html).toContain('href="https://x.example/?a=%221%22&amp;b=%3C2%3E"');
    expect(html).not.toContain('<i>');
  });
});
