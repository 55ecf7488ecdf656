import { licenseChannel, type LicenseChangedMessage } from '@aplt/licensing';
import type { Redis } from 'ioredis';

/** Announces a committed license change; clients refresh at once instead of at their next poll. */
export interface LicensePublisher {
  published(tenantId: string, revision: string | null): Promise<void>;
}

export function redisLicensePublisher(redis: Redis, prefix: string): LicensePublisher {
  return {
    async published(tenantId, revision) {
      const msg: LicenseChangedMessage = { tenant_id: tenantId, revision };
      await redis.publish(licenseChannel(prefix), JSON.stringify(msg));
    },
  };
}

export const noPublisher: LicensePublisher = { published: async () => {} };
