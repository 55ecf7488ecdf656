import { describe, expect, it } from 'vitest';
import { clientIpResolver } from '../src/forward-auth/client-ip';
import { cookieValue } from '../src/forward-auth/cookie-value';
import { forwardedReturnUrl } from '../src/forward-auth/return-url';

describe('forward-auth header parsing', () => {
  it('finds one cookie by exact name, anywhere in the header', () => {
    const h = 'xaplt_session=evil; aplt_csrf=c; aplt_session=tok-1; aplt_device="d%2F1"';
    expect(cookieValue(h, 'aplt_session')).toBe('tok-1');
    expect(cookieValue(h, 'aplt_device')).toBe('d/1');
    expect(cookieValue('aplt_session=first;aplt_session=second', 'aplt_session')).toBe('first');
    expect(cookieValue('aplt_sessionx=1', 'aplt_session')).toBeUndefined();
    expect(cookieValue('aplt_session=%E0%A4%A', 'aplt_session')).toBeUndefined();
    expect(cookieValue(undefined, 'aplt_session')).toBeUndefined();
  });

  it('believes X-Forwarded-For only from trusted proxies, right to left', () => {
    const ip = clientIpResolver(['127.0.0.1/32', '10.9.0.0/16', '::1/128']);
    expect(ip('127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(ip('::ffff:127.0.0.1', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // A proxy chain: the right-most address that is not one of ours is the client.
    expect(ip('127.0.0.1', '203.0.113.9, 10.9.1.1')).toBe('203.0.113.9');
    // A client cannot name itself: an untrusted peer's header is ignored.
    expect(ip('192.0.2.4', '127.0.0.1')).toBe('192.0.2.4');
    expect(ip('::1', undefined)).toBe('::1');
    // Only trusted hops all the way: the left-most one.
    expect(ip('127.0.0.1', '10.9.0.1, 10.9.0.2')).toBe('10.9.0.1');
    // IPv6 proxies, and a trusted proxy's hop that is not an address is not resolved into one.
    const ip6 = clientIpResolver(['2001:db8::/32']);
    expect(ip6('2001:db8::7', '2001:db8::8, 2a00:1450::1')).toBe('2a00:1450::1');
    expect(ip('127.0.0.1', 'garbage')).toBe('garbage');
    expect(() => clientIpResolver(['not-an-ip'])).toThrow(/TRUSTED_PROXIES/);
    expect(() => clientIpResolver(['10.1'])).toThrow(/TRUSTED_PROXIES/);
  });

  it("builds a denied request's return URL only for hosts on the configured domains", () => {
    const returnUrl = forwardedReturnUrl(['localhost', 'aplt.example']);
    expect(returnUrl('http', 'acme.localhost:8080', '/app?x=1')).toBe('http://acme.localhost:8080/app?x=1');
    expect(returnUrl('https', 'shop.aplt.example', '/')).toBe('https://shop.aplt.example/');
    expect(returnUrl('http', 'evil.example', '/app')).toBeNull();
    expect(returnUrl('http', 'evil.example@acme.localhost', '/app')).toBeNull();
    expect(returnUrl('http', 'localhost.evil.example', '/app')).toBeNull();
    expect(returnUrl('http', 'acme.localhost', '//evil.example/')).toBeNull();
    expect(returnUrl('http', 'acme.localhost', 'app')).toBeNull();
  });
});
