import { describe, expect, it } from 'vitest';
import { ConfigError, env, generateSecrets, jwtEnv, loadEnv, publishedSecrets, secretNames } from '../src';

describe('secrets', () => {
  const shape = { ...jwtEnv, ACCESS_ASSERTION_PUBLIC_KEY: env.key() };

  function problems(source: Record<string, string | undefined>): string[] {
    try {
      loadEnv(shape, source);
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
    return [];
  }

  it('refuses a missing, short, placeholder or published secret, naming the variable but not the value', () => {
    const key = generateSecrets().ACCESS_ASSERTION_PUBLIC_KEY;
    expect(problems({ ACCESS_ASSERTION_PUBLIC_KEY: key })).toEqual([
      expect.stringMatching(/^JWT_SECRET: .*missing/),
    ]);
    for (const value of [
      ...publishedSecrets,
      'short',
      'x'.repeat(40),
      'please-change-me-0123456789abcdefghijk',
    ]) {
      const found = problems({ JWT_SECRET: value, ACCESS_ASSERTION_PUBLIC_KEY: key });
      expect(found, value).toHaveLength(1);
      expect(found[0]).toMatch(/^JWT_SECRET: /);
      expect(found[0]).toContain('value hidden');
      expect(found[0]).not.toContain(value);
    }
  });

  it('accepts what generateSecrets makes, and makes different ones each time', () => {
    const a = generateSecrets();
    const b = generateSecrets();
    expect(Object.keys(a).sort()).toEqual([...secretNames].sort());
    for (const name of secretNames) expect(a[name]).not.toBe(b[name]);
    expect(loadEnv(shape, { ...a })).toMatchObject({ JWT_SECRET: a.JWT_SECRET });
  });
});
