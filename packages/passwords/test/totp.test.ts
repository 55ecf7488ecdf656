import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  acceptedStep,
  enrolmentOf,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
  totpCodeAt,
} from '../src/totp';

const at = Date.UTC(2026, 0, 5, 12, 0, 10);
const step = Math.floor(at / 1000 / 30);

describe('TOTP primitives shared by staff (access) and customers (auth)', () => {
  it('makes base32 secrets and codes an authenticator app would show', async () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await totpCodeAt(secret, at)).toBe(await generate({ secret, epoch: Math.floor(at / 1000) }));
  });

  it('accepts a code one step either side, refuses older ones and replays of the last step', async () => {
    const secret = newTotpSecret();
    const code = (offset: number) => totpCodeAt(secret, at + offset * 30_000);
    expect(await acceptedStep(secret, await code(0), null, at)).toBe(step);
    expect(await acceptedStep(secret, await code(-1), null, at)).toBe(step - 1);
    expect(await acceptedStep(secret, await code(1), null, at)).toBe(step + 1);
    expect(await acceptedStep(secret, await code(-3), null, at)).toBeNull();
    // The step already used is not accepted again; a newer one is.
    expect(await acceptedStep(secret, await code(0), step, at)).toBeNull();
    expect(await acceptedStep(secret, await code(1), step, at)).toBe(step + 1);
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 123456'])
      expect(await acceptedStep(secret, bad, null, at)).toBeNull();
  });

  it('shows the enrolment as an otpauth URI and a QR code (SVG and PNG data URL)', async () => {
    const e = await enrolmentOf('JBSWY3DPEHPK3PXP', { issuer: 'Acme Shop', label: 'jane@example.com' });
    expect(e.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Acme%20Shop:jane%40example\.com\?/);
    expect(e.otpauth_uri).toContain('secret=JBSWY3DPEHPK3PXP');
    expect(e.otpauth_uri).toContain('issuer=Acme%20Shop');
    expect(e.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(e.qr_data_url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
  });

  it('seals to its key, domain and owner; altered or shortened values do not open', () => {
    const c = { key: 'k'.repeat(20) + 'abcdefghijklmnop', domain: 'aplt-auth', owner: 'customer:1' };
    const sealed = sealTotpSecret(c, 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(openTotpSecret(c, sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(openTotpSecret({ ...c, owner: 'customer:2' }, sealed)).toBeNull();
    expect(openTotpSecret({ ...c, domain: 'aplt-access' }, sealed)).toBeNull();
    expect(openTotpSecret({ ...c, key: `${c.key}x` }, sealed)).toBeNull();
    // The last two characters replaced by two others (a fixed 'AA' was the original 1 time in 4,096).
    const altered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    expect(altered).not.toBe(sealed);
    expect(openTotpSecret(c, altered)).toBeNull();
    const [v, iv, tag, body] = sealed.split('.');
    // A tag cut to 4 bytes is refused outright, not checked on what is left of it.
    const short = Buffer.from(tag!, 'base64url').subarray(0, 4).toString('base64url');
    expect(openTotpSecret(c, [v, iv, short, body].join('.'))).toBeNull();
    expect(openTotpSecret(c, `${sealed}.x`)).toBeNull();
    expect(openTotpSecret(c, 'garbage')).toBeNull();
  });
});
