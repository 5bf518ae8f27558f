import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/engine/bounded-map.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded (engine.md X1)', () => {
  it('X1: results keep the order of the items whatever order they settle in', async () => {
    const delays = [30, 0, 20, 5, 10];
    const result = await mapBounded(delays, 2, (ms) => new Promise((r) => setTimeout(r, ms, ms)));
    expect(result).toEqual(delays);
  });

  it('X1: never more than the bound pending at once, and every item starts', async () => {
    let pending = 0;
    let most = 0;
    const started: number[] = [];
    const result = await mapBounded([...Array(40).keys()], 8, async (i) => {
      started.push(i);
      pending += 1;
      most = Math.max(most, pending);
      await new Promise((r) => setTimeout(r, i % 3));
      pending -= 1;
      return i * 2;
    });
    expect(most).toBe(8);
    expect(started).toEqual([...Array(40).keys()]);
    expect(result).toEqual([...Array(40).keys()].map((i) => i * 2));
  });

  it('X1: up to the bound start at once; each later one starts in a turn of the event loop of its own', async () => {
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const all = mapBounded([0, 1, 2, 3, 4], 2, (i) => {
      started.push(i);
      return new Promise<number>((resolve) => releases.push(() => resolve(i)));
    });
    expect(started).toEqual([0, 1]);
    releases[0]?.();
    releases[1]?.();
    await turn();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    releases[2]?.();
    releases[3]?.();
    await turn();
    await turn();
    releases[4]?.();
    expect(await all).toEqual([0, 1, 2, 3, 4]);
  });

  it('X1: no items is an empty result; a rejection rejects the map and starts nothing more', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
    const started: number[] = [];
    const failing = mapBounded([0, 1, 2, 3], 1, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('boom');
      return i;
    });
    await expect(failing).rejects.toThrow('boom');
    for (let i = 0; i < 5; i += 1) await turn();
    expect(started).toEqual([0, 1]);
  });
});
