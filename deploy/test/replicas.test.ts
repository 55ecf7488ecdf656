import { loadEnv } from '@aplt/config';
import { describe, expect, it } from 'vitest';
import { parseReplicas } from '../fleet/replicas';
import { fleetEnvShape } from '../fleet/run-fleet';
import { defaultBackoff, nextBackoff } from '../fleet/supervisor';

const names = ['access', 'catalog', 'catalog-worker'];

describe('FLEET_REPLICAS', () => {
  it('gives every process the count first named, and per-name counts after it', () => {
    expect(parseReplicas('', names)).toEqual({ access: 1, catalog: 1, 'catalog-worker': 1 });
    expect(parseReplicas('2', names)).toEqual({ access: 2, catalog: 2, 'catalog-worker': 2 });
    expect(parseReplicas('2, catalog=3, catalog-worker=1', names)).toEqual({
      access: 2,
      catalog: 3,
      'catalog-worker': 1,
    });
    expect(parseReplicas('catalog=2', names)).toEqual({ access: 1, catalog: 2, 'catalog-worker': 1 });
  });

  it('refuses what it cannot mean, naming the variable and the value', () => {
    for (const [value, why] of [
      ['0', 'between 1 and 8'],
      ['9', 'between 1 and 8'],
      ['two', 'not a whole number'],
      ['2,catalog=x', 'not a whole number'],
      ['2,billing=2', '"billing" is no fleet process'],
      ['catalog=2,catalog=3', 'given twice'],
      ['catalog=2,3', 'comes first'],
      ['1.5', 'not a whole number'],
    ] as const) {
      expect(() => parseReplicas(value, names), value).toThrow(why);
    }
    expect(() => loadEnv(fleetEnvShape, { FLEET_REPLICAS: '2,nosuch=2' })).toThrow(
      /FLEET_REPLICAS: "nosuch" is no fleet process .*\(got "2,nosuch=2"\)/,
    );
    expect(loadEnv(fleetEnvShape, { FLEET_REPLICAS: '2,catalog-worker=1' }).FLEET_REPLICAS).toMatchObject({
      admin: 2,
      'catalog-worker': 1,
    });
  });
});

describe('restart backoff', () => {
  it('doubles from 0.5 s to at most 30 s while crashes follow each other, and starts over after a stable minute', () => {
    const waits: number[] = [];
    let last: number | undefined;
    for (let i = 0; i < 9; i++) {
      last = nextBackoff(last, 1_000, defaultBackoff);
      waits.push(last);
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(nextBackoff(30_000, 59_999, defaultBackoff)).toBe(30_000);
    expect(nextBackoff(30_000, 60_000, defaultBackoff)).toBe(500);
  });
});
