/**
 * The Redis pub/sub channel a license write is announced on (under the fleet's REDIS_PREFIX).
 * The message is JSON {tenant_id, revision}; tenant_id '*' means "refresh every tenant".
 */
export const LICENSE_CHANGED_CHANNEL = 'license-changed';

export const licenseChannel = (prefix: string) => `${prefix}:${LICENSE_CHANGED_CHANNEL}`;

export interface LicenseChangedMessage {
  tenant_id: string;
  revision: string | null;
}
