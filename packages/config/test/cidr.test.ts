import { describe, expect, it } from 'vitest';
import { ConfigError, env, httpEnv, loadEnv, parseCidr } from '../src';

describe('addresses and CIDR ranges', () => {
  it('reads an address as its own range and a range as written', () => {
    expect(parseCidr('10.9.0.0/16')).toEqual({ net: '10.9.0.0', prefix: 16, type: 'ipv4' });
    expect(parseCidr(' 127.0.0.1 ')).toEqual({ net: '127.0.0.1', prefix: 32, type: 'ipv4' });
    expect(parseCidr('2001:db8::/32')).toEqual({ net: '2001:db8::', prefix: 32, type: 'ipv6' });
    expect(parseCidr('::1')).toEqual({ net: '::1', prefix: 128, type: 'ipv6' });
    expect(parseCidr('0.0.0.0/0')).toEqual({ net: '0.0.0.0', prefix: 0, type: 'ipv4' });
  });

  it('refuses the legacy and malformed forms other parsers widen into some address', () => {
    for (const bad of [
      '10.1',
      '010.0.0.1',
      '0x7f.0.0.1',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/1e1',
      '10.0.0.0/8/8',
      'localhost',
      '',
      '10.0.0.0/ 8',
    ])
      expect(parseCidr(bad), bad).toBeNull();
  });

  it('makes a bad TRUSTED_PROXIES entry a startup error that names the variable and the entry', () => {
    expect(loadEnv(httpEnv, { TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadEnv(httpEnv, { TRUSTED_PROXIES: '10.0.0.0/8,10.1' })).toThrow(ConfigError);
    expect(() => loadEnv({ R: env.cidrList() }, { R: '192.0.2.0/24,nope' })).toThrow(/R: .*nope/);
  });
});
