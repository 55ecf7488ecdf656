import { type FleetSecrets, generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, type AssertionInput, AssertionSigner } from '../src';

let secrets: FleetSecrets | undefined;
let signer: AssertionSigner | undefined;

/**
 * The fleet's secrets for this test process, made fresh on first use (nothing from the
 * repository is ever accepted). Every app a test file builds, and the access service that signs
 * assertions for them, share these, as the services of one fleet share .run/secrets.env.
 */
export function testSecrets(): FleetSecrets {
  return (secrets ??= generateSecrets());
}

/**
 * The headers the proxy adds after the access service allowed a request, for tests that call a
 * tenant backend with inject() instead of through the real proxy: an identity assertion for
 * `host` signed with this process's access key. By default a whitelisted machine, like the
 * fleet's own tools.
 */
export function viaProxy(
  host: string,
  who: Partial<Omit<AssertionInput, 'host'>> = {},
): Record<string, string> {
  signer ??= new AssertionSigner(testSecrets().ACCESS_ASSERTION_PRIVATE_KEY);
  const token = signer.sign({
    sub: who.sub ?? 'whitelist',
    host,
    tenant: who.tenant ?? null,
    reason: who.reason ?? 'whitelist',
    roles: who.roles ?? [],
  });
  return { host, [ASSERTION_HEADER]: token };
}
