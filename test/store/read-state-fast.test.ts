import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { readQuickState } from '../../src/store/state/quick-state.js';
import { readStateFast } from '../../src/store/state/read-state-fast.js';
import { emptyState, stateSchema } from '../../src/store/state/state-schema.js';
import { placesOf, validOf, withValueAt } from '../helpers/schema-walk.js';
import type { Path, Place } from '../helpers/schema-walk.js';
import { makeTempHome } from '../helpers/temp-home.js';

/**
 * stateSchema is the one schema of the state document; readQuickState is a hand-written copy that
 * `hookpm list` uses so that it need not load zod. These tests walk the schema itself, so a key
 * or a rule added to it that the fast reader does not know fails here.
 */
const document = validOf(stateSchema);

function label(path: Path): string {
  return path.length === 0 ? 'the document' : path.join('.');
}

/** How the fast reader and the schema differ on `doc` as JSON text, or null when they agree. */
function disagreement(doc: unknown): string | null {
  const text = JSON.stringify(doc);
  // Removing the document itself leaves no text to read.
  if (text === undefined) return null;
  const parsed = stateSchema.safeParse(JSON.parse(text));
  const fast = readQuickState(text);
  if (!parsed.success)
    return fast === null ? null : 'the fast reader accepts what the schema rejects';
  if (fast === null) return 'the fast reader rejects what the schema accepts';
  return isDeepStrictEqual(fast, parsed.data) ? null : 'both accept, with different results';
}

/** The disagreements at `place`, each naming the value put there. */
function disagreementsAt(place: Place): string[] {
  return place.probes.flatMap((probe) => {
    const found = disagreement(withValueAt(document, place.path, probe));
    const what = probe === undefined ? 'removed' : `set to ${JSON.stringify(probe)}`;
    return found === null ? [] : [`${label(place.path)} ${what}: ${found}`];
  });
}

describe('readQuickState (the start-up path of hookpm list) against stateSchema', () => {
  it('registry.md section 5 (D2): the document built from the schema is valid and read alike', () => {
    expect(stateSchema.safeParse(document).success).toBe(true);
    expect(disagreement(document)).toBeNull();
  });

  it.each(placesOf(stateSchema).map((place) => [label(place.path), place] as const))(
    'registry.md section 5 (D2, D6): at %s, the fast reader accepts exactly what the schema accepts, with the same result',
    (_label, place) => {
      expect(disagreementsAt(place)).toEqual([]);
    },
  );

  it('registry.md section 5 (D6): text that is not JSON is left to the schema path (null)', () => {
    expect(readQuickState('{"version": 1,')).toBeNull();
  });

  it('registry.md section 5 (D2): a store without a state file reads as the empty state', async () => {
    const home = await makeTempHome();
    try {
      expect(await readStateFast(resolveStorePaths(home.env))).toStrictEqual(emptyState());
    } finally {
      await home.cleanup();
    }
  });
});
