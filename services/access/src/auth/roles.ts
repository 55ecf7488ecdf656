/** Manages users, the whitelist and bans. */
export const ACCESS_ADMIN_ROLE = 'access-admin';
/** May change tenant licenses. */
export const LICENSE_ADMIN_ROLE = 'license-admin';
export const knownRoles = [ACCESS_ADMIN_ROLE, LICENSE_ADMIN_ROLE] as const;

/**
 * Platform staff pass forward auth on every tenant's hosts: no tenant, or a platform role (an
 * access or license administrator of the platform who also belongs to one tenant).
 */
export function isPlatformStaff(identity: { tenantId: string | null; roles: readonly string[] }): boolean {
  return (
    identity.tenantId === null || identity.roles.some((r) => (knownRoles as readonly string[]).includes(r))
  );
}
