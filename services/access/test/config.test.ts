import { testSecrets } from '@aplt/testing';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';

describe('access configuration secrets', () => {
  const secrets = testSecrets();

  it('refuses to start without its secrets, naming each one', () => {
    expect(() => loadConfig({})).toThrow(
      /ACCESS_CAPTCHA_SECRET[\s\S]*ACCESS_ASSERTION_PRIVATE_KEY[\s\S]*SERVICE_TOKEN/,
    );
  });

  it('refuses the CAPTCHA secret that used to be the published default, and short ones, without echoing them', () => {
    for (const ACCESS_CAPTCHA_SECRET of ['dev-only-captcha-secret-change-me', 'short']) {
      let message = '';
      try {
        loadConfig({ ...secrets, ACCESS_CAPTCHA_SECRET });
      } catch (err) {
        message = String(err);
      }
      expect(message).toMatch(/ACCESS_CAPTCHA_SECRET: .*\(value hidden\)/);
      expect(message).not.toContain(ACCESS_CAPTCHA_SECRET);
    }
  });

  it('starts with generated secrets', () => {
    const config = loadConfig({ ...secrets });
    expect(config.SERVICE_TOKEN).toBe(secrets.SERVICE_TOKEN);
    expect(config.ACCESS_ASSERTION_PRIVATE_KEY).toBe(secrets.ACCESS_ASSERTION_PRIVATE_KEY);
  });
});
