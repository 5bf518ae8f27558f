import { describe, expect, it } from 'vitest';
import { HookpmError } from '../../src/errors.js';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import {
  closestNames,
  didYouMean,
  editDistance,
  suggestIn,
  withSuggestion,
} from '../../src/text/did-you-mean.js';

/** Suggestions by edit distance (optimal string alignment, case folded). */
describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['guard', 'guard', 0],
    ['gaurd', 'guard', 1],
    ['guard', 'guards', 1],
    ['gard', 'guard', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['abcd', 'badc', 2],
  ])('the distance from %j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closestNames and didYouMean', () => {
  const plugins = ['audit-log', 'guard', 'secrets-guard', 'notify-on-stop', 'mine'];

  it.each([
    ['gaurd', ['guard']],
    ['Guard', ['guard']],
    ['mien', ['mine']],
    ['audit-lgo', ['audit-log']],
    ['zzzzzz', []],
    ['guard', []],
  ])('%j suggests %j', (input, expected) => {
    expect(closestNames(input, plugins)).toEqual(expected);
  });

  it('event names are found without regard to case, and with a typo', () => {
    expect(closestNames('stop', EVENT_NAMES)).toEqual(['Stop']);
    expect(closestNames('pretooluse', EVENT_NAMES)).toEqual(['PreToolUse']);
    expect(closestNames('PreTolUse', EVENT_NAMES)).toEqual(['PreToolUse']);
  });

  it('only the nearest, at most three, each once', () => {
    expect(closestNames('ab', ['abc', 'ab1', 'ab', 'abc', 'xy'])).toEqual(['abc', 'ab1']);
    expect(
      closestNames('aaaaaa', ['aaaabb', 'aaaaab', 'aaabbb', 'aaaaaa1', 'aaaaac', 'aaaaad']),
    ).toEqual(['aaaaab', 'aaaaaa1', 'aaaaac']);
    expect(closestNames('aaaaaa', ['aaaabb', 'aaabbb'])).toEqual(['aaaabb']);
    expect(didYouMean('gaurd', plugins)).toBe('Did you mean guard?');
    expect(didYouMean('ab', ['abc', 'ab1'])).toBe('Did you mean abc or ab1?');
    expect(didYouMean('zzzz', plugins)).toBeNull();
  });

  it('suggestIn puts the suggestion first in the hint and the names in `suggestions`', () => {
    const error = new HookpmError('E_NOT_FOUND', 'no plugin gaurd', {
      plugin: 'gaurd',
      hint: 'Run search.',
    });
    const suggested = suggestIn(error, 'gaurd', plugins);
    expect(suggested).toMatchObject({
      code: 'E_NOT_FOUND',
      message: 'no plugin gaurd',
      hint: 'Did you mean guard?\nRun search.',
      details: { plugin: 'gaurd', suggestions: ['guard'] },
    });
    expect(suggestIn(error, 'zzzz', plugins)).toBe(error);
    expect(withSuggestion(null, 'hint')).toBe('hint');
    expect(withSuggestion('Did you mean x?', undefined)).toBe('Did you mean x?');
  });
});
