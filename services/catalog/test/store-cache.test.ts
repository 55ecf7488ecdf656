import { describe, expect, it } from 'vitest';
import { createStoreCache } from '../src/store/store-cache';

/** A clock the test moves by hand (lru-cache reads time through `perf.now()`). */
function manualClock() {
  let now = 1_000;
  return { perf: { now: () => now }, advance: (ms: number) => (now += ms) };
}

describe('public catalog cache (lru-cache with TTL)', () => {
  it('answers an entry until its TTL has passed, then forgets it', () => {
    const clock = manualClock();
    const cache = createStoreCache(10_000, { perf: clock.perf, ttlResolution: 0 });
    cache?.set('t1|/store/aplt/products', '{"count":1}');
    clock.advance(10_000);
    expect(cache?.get('t1|/store/aplt/products')).toBe('{"count":1}');
    clock.advance(1);
    expect(cache?.get('t1|/store/aplt/products')).toBeUndefined();
    expect(cache?.size).toBe(0);
  });

  it('is bounded: when full, the least recently used entry goes first', () => {
    const cache = createStoreCache(10_000, { max: 2 });
    cache?.set('a', '1');
    cache?.set('b', '2');
    expect(cache?.get('a')).toBe('1'); // a is now more recently used than b
    cache?.set('c', '3');
    expect(cache?.size).toBe(2);
    expect(cache?.get('b')).toBeUndefined();
    expect(cache?.get('a')).toBe('1');
    expect(cache?.get('c')).toBe('3');
  });

  it('is switched off by a TTL of 0 (lru-cache would keep such entries for ever)', () => {
    expect(createStoreCache(0)).toBeUndefined();
    expect(createStoreCache(-1)).toBeUndefined();
    expect(createStoreCache(Number.NaN)).toBeUndefined();
  });
});
