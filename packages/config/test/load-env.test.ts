import { describe, expect, it } from 'vitest';
import { ConfigError, env, loadEnv } from '../src';

describe('loadEnv', () => {
  const shape = {
    PORT: env.port(3000),
    NAME: env.str(),
    RATE: env.decimal('12.99'),
    ON: env.bool(false),
    L: env.list(['a']),
  };

  it('applies defaults and coerces types', () => {
    const parsed = loadEnv(shape, { NAME: 'x', ON: 'true', L: 'a, b,,c' });
    expect(parsed).toEqual({ PORT: 3000, NAME: 'x', RATE: '12.99', ON: true, L: ['a', 'b', 'c'] });
  });

  it('names every missing or malformed variable in one error', () => {
    try {
      loadEnv(shape, { PORT: 'abc', RATE: '12,99' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT: .*got "abc"/);
      expect(problems).toMatch(/NAME: .*missing/);
      expect(problems).toMatch(/RATE: .*12\.99.*got "12,99"/);
    }
  });

  it('treats empty strings as unset', () => {
    expect(loadEnv({ P: env.port(5) }, { P: '' }).P).toBe(5);
  });
});
