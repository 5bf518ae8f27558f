import { describe, expect, it } from 'vitest';
import {
  describeCapabilities,
  effectiveConfinement,
  isDeclaredOrConfined,
  parseConfineSpec,
  widensCapabilities,
  type Capabilities,
} from '../../src/plugin/capabilities.js';
import { parseManifest } from '../../src/plugin/manifest.js';
import { buildSurface } from '../../src/plugin/surface.js';

const caps = (network: boolean, ...write: Capabilities['write']): Capabilities => ({
  network,
  write,
});

describe('capabilities (security.md Z1-Z4, Z8)', () => {
  it('Z1: the manifest field is {network: boolean, write: [data|project|tmp]}; anything else is invalid_manifest', () => {
    const ok = parseManifest({ name: 'a', capabilities: { network: false, write: ['data'] } }, 'p');
    expect(ok.diagnostics).toEqual([]);
    for (const bad of [
      { network: 'no', write: [] },
      { network: false, write: ['home'] },
      { network: false },
      { network: false, write: [], hosts: [] },
    ]) {
      const parsed = parseManifest({ name: 'a', capabilities: bad }, 'p');
      expect(parsed.diagnostics.map((d) => [d.code, d.path])).toEqual([
        ['invalid_manifest', 'p:capabilities'],
      ]);
    }
  });

  it('Z2: the surface hash is unchanged without capabilities, and differs with them (places sorted)', () => {
    const plain = buildSurface({ documents: [] });
    expect(plain.capabilities).toBe(null);
    const a = buildSurface({
      documents: [],
      manifest: { capabilities: { network: false, write: ['tmp', 'data'] } },
    });
    const b = buildSurface({
      documents: [],
      manifest: { capabilities: caps(false, 'data', 'tmp') },
    });
    expect(a.capabilities).toEqual(caps(false, 'data', 'tmp'));
    expect(a.surfaceHash).toBe(b.surfaceHash);
    expect(a.surfaceHash).not.toBe(plain.surfaceHash);
    const open = buildSurface({
      documents: [],
      manifest: { capabilities: caps(true, 'data', 'tmp') },
    });
    expect(open.surfaceHash).not.toBe(a.surfaceHash);
  });

  it('Z2: network, a new place or dropping the declaration widens; fewer places, no network or a first declaration narrows', () => {
    const table: Array<[Capabilities | null, Capabilities | null, boolean]> = [
      [caps(false), caps(true), true],
      [caps(false, 'data'), caps(false, 'data', 'project'), true],
      [caps(false), null, true],
      [caps(true, 'data'), caps(false, 'data'), false],
      [caps(false, 'data', 'tmp'), caps(false, 'tmp'), false],
      [null, caps(true, 'data', 'project', 'tmp'), false],
      [null, null, false],
    ];
    for (const [before, after, widens] of table)
      expect(widensCapabilities(before, after), JSON.stringify([before, after])).toBe(widens);
  });

  it("Z4: the user's --confine narrows what the plugin declares; either alone applies as it is", () => {
    expect(effectiveConfinement(null, null)).toBe(null);
    expect(effectiveConfinement(caps(true, 'data'), null)).toEqual(caps(true, 'data'));
    expect(effectiveConfinement(null, caps(false, 'tmp'))).toEqual(caps(false, 'tmp'));
    expect(effectiveConfinement(caps(true, 'data', 'tmp'), caps(false, 'tmp', 'project'))).toEqual(
      caps(false, 'tmp'),
    );
  });

  it('Z4: --confine reads network=, write= with + between places, none, and refuses anything else', () => {
    expect(parseConfineSpec('network=false,write=data')).toEqual(caps(false, 'data'));
    expect(parseConfineSpec('write=tmp+data, network=true')).toEqual(caps(true, 'data', 'tmp'));
    expect(parseConfineSpec('network=false,write=none')).toEqual(caps(false));
    expect(parseConfineSpec('network=false')).toEqual(caps(false));
    expect(parseConfineSpec('write=data')).toEqual({
      error: 'network=false or network=true is required',
    });
    expect(parseConfineSpec('network=false,write=home')).toMatchObject({
      error: /unknown place "home"/,
    });
    expect(parseConfineSpec('network=maybe')).toMatchObject({ error: /cannot read/ });
    expect(parseConfineSpec('network=false,network=true')).toEqual({
      error: 'network is given twice',
    });
  });

  it('Z1/Z8: the review line, and whether a plugin is declared or confined', () => {
    expect(describeCapabilities(caps(false))).toBe('network: none; writes: nowhere');
    expect(describeCapabilities(caps(true, 'data', 'project'))).toBe(
      'network: any; writes: data, project',
    );
    expect(describeCapabilities(null)).toMatch(/unconfined, with all of the user's rights/);
    expect(isDeclaredOrConfined({ capabilities: null })).toBe(false);
    expect(isDeclaredOrConfined({ capabilities: null, confine: caps(false) })).toBe(true);
    expect(isDeclaredOrConfined({ capabilities: caps(true) })).toBe(true);
  });
});
