import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from '../src/lib/cache';

/** The storefront's in-process cache of catalog answers and feature lists (src/lib/cache.ts). */
describe('TtlCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shares one load between concurrent callers and reuses it until the time to live ends', async () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number>(() => 10_000);
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b]).toEqual([1, 1]);
    vi.advanceTimersByTime(9_999);
    expect(await cache.get('k', load)).toBe(1);
    vi.advanceTimersByTime(2);
    expect(await cache.get('k', load)).toBe(2);
    // Another key (another tenant or query) has its own entry.
    expect(await cache.get('other', load)).toBe(3);
  });

  it('keeps no failure: the next caller loads again', async () => {
    const cache = new TtlCache<string>(() => 10_000);
    await expect(cache.get('k', () => Promise.reject(new Error('store API down')))).rejects.toThrow(
      'store API down',
    );
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('a time to live of 0 turns it off', async () => {
    let ttl = 0;
    const cache = new TtlCache<number>(() => ttl);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(2);
    ttl = 10_000;
    expect(await cache.get('k', load)).toBe(3);
    expect(await cache.get('k', load)).toBe(3);
  });

  it('drops the least recently used entry beyond its size, and invalidates by key or prefix', async () => {
    const cache = new TtlCache<string>(() => 10_000, 2);
    const loads: string[] = [];
    const load = (v: string) => async () => {
      loads.push(v);
      return v;
    };
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('a', load('a')); // a is now the most recent
    await cache.get('c', load('c')); // b goes
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
    cache.invalidate('b');
    await cache.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b', 'b']);
    const byTenant = new TtlCache<string>(() => 10_000);
    await byTenant.get('acme.localhost/store/aplt/products?lang=nl', load('x'));
    await byTenant.get('hooli.localhost/store/aplt/products?lang=nl', load('y'));
    byTenant.invalidate('acme.localhost/*');
    await byTenant.get('acme.localhost/store/aplt/products?lang=nl', load('x2'));
    await byTenant.get('hooli.localhost/store/aplt/products?lang=nl', load('y2'));
    expect(loads.slice(-3)).toEqual(['x', 'y', 'x2']);
  });
});
