import { describe, expect, it } from 'vitest';
import {
  applyTrustAnswer,
  decideTrust,
  type TrustPolicyDecision,
  type TrustPolicyInput,
} from '../../src/hooks/trust-policy.js';

const base: TrustPolicyInput = {
  interactive: true,
  flag: false,
  stored: false,
  projectFile: 'present',
  sameAsUserFile: false,
  grantedOnce: false,
};
const decide = (over: Partial<TrustPolicyInput>): TrustPolicyDecision =>
  decideTrust({ ...base, ...over });

describe('decideTrust', () => {
  it.each([
    ['no project file', { projectFile: 'missing' as const }, 'untrusted', 'no-project-file'],
    [
      'no project file, even with a stored trust',
      { projectFile: 'missing' as const, stored: true },
      'untrusted',
      'no-project-file',
    ],
    [
      'project file equal to the user file',
      { sameAsUserFile: true },
      'untrusted',
      'same-as-user-file',
    ],
    [
      'project file equal to the user file, even with the flag',
      { sameAsUserFile: true, flag: true },
      'untrusted',
      'same-as-user-file',
    ],
    ['the flag', { flag: true }, 'trusted', 'flag'],
    ['a stored trust', { stored: true }, 'trusted', 'stored'],
    ['an Allow once still bound to these bytes', { grantedOnce: true }, 'trusted', 'granted-once'],
    ['nothing', {}, 'ask', 'not-trusted'],
  ])(
    'T4: interactive start with %s decides without asking unless nothing trusts it',
    (_name, over, outcome, reason) => {
      expect(decide(over)).toEqual({ outcome, reason });
    },
  );

  it.each([
    ['nothing', {}, 'untrusted', 'headless'],
    ['a stored trust', { stored: true }, 'untrusted', 'headless'],
    ['an Allow once grant', { grantedOnce: true }, 'untrusted', 'headless'],
    ['the flag', { flag: true }, 'trusted', 'flag'],
    ['the flag and a stored trust', { flag: true, stored: true }, 'trusted', 'flag'],
  ])(
    'T5: headless use with %s never asks and loads project hooks only with --trust-project-hooks',
    (_name, over, outcome, reason) => {
      expect(decide({ ...over, interactive: false })).toEqual({ outcome, reason });
    },
  );

  it('T5: no headless input ever yields ask', () => {
    for (const flag of [false, true])
      for (const stored of [false, true])
        for (const grantedOnce of [false, true])
          for (const sameAsUserFile of [false, true])
            for (const projectFile of ['missing', 'present'] as const) {
              const decision = decideTrust({
                interactive: false,
                flag,
                stored,
                grantedOnce,
                sameAsUserFile,
                projectFile,
              });
              expect(decision.outcome).not.toBe('ask');
              if (!flag) expect(decision.outcome).toBe('untrusted');
            }
  });
});

describe('applyTrustAnswer', () => {
  it('T4: Allow once trusts for this session only, Always allow stores it, Deny skips, Cancel aborts', () => {
    expect(applyTrustAnswer('once')).toEqual({
      outcome: 'trusted',
      reason: 'allowed-once',
      store: false,
    });
    expect(applyTrustAnswer('always')).toEqual({
      outcome: 'trusted',
      reason: 'always-allowed',
      store: true,
    });
    expect(applyTrustAnswer('deny')).toEqual({
      outcome: 'untrusted',
      reason: 'denied',
      store: false,
    });
    expect(applyTrustAnswer('cancel')).toEqual({ outcome: 'abort' });
  });
});
