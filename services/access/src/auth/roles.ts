/** Manages users, the whitelist and bans. */
export const ACCESS_ADMIN_ROLE = 'access-admin';
/** May change tenant licenses. */
export const LICENSE_ADMIN_ROLE = 'license-admin';
export const knownRoles = [ACCESS_ADMIN_ROLE, LICENSE_ADMIN_ROLE] as const;
