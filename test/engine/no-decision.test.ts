import { describe, expect, it } from 'vitest';
import { noDecision } from '../../src/engine/no-decision.js';
import { reduceResults } from '../../src/engine/reduce.js';
import { EVENT_NAMES } from '../../src/hooks/events.js';

describe('a dispatch with no matching handler', () => {
  it.each(EVENT_NAMES)(
    'X1/O3: %s gives what reducing no runs gives, at any continuation count',
    (event) => {
      for (const continuationCount of [0, 3, 8, 9])
        expect(noDecision(event, 'id')).toEqual(
          reduceResults(event, [], { snapshotId: 'id', continuationCount }),
        );
    },
  );
});
