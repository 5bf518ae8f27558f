import { describe, expect, it } from 'vitest';
import { escapeControl, renderTable } from '../../src/cli/render/render.js';

describe('escapeControl', () => {
  it.each([
    ['plain text, unicode é and emoji 🎉', 'plain text, unicode é and emoji 🎉'],
    ['a\nb\tc\rd', 'a\\nb\\tc\\rd'],
    ['\u001b[2J\u001b]0;title\u0007', '\\u001b[2J\\u001b]0;title\\u0007'],
    ['del\u007f c1\u009b', 'del\\u007f c1\\u009b'],
    ['safe\u202egnp.exe', 'safe\\u202egnp.exe'],
  ])('cli.md section 1: %j is printed with control characters escaped', (input, expected) => {
    expect(escapeControl(input)).toBe(expected);
  });
});

describe('renderTable', () => {
  it('aligns columns and escapes every cell', () => {
    expect(renderTable(['ID', 'COMMAND'], [['Stop:0:0', 'echo\u001b[31m']])).toBe(
      'ID        COMMAND\nStop:0:0  echo\\u001b[31m',
    );
  });
});
