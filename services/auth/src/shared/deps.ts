import type { TenantDatabases } from '@aplt/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { BackgroundTasks } from './background';
import type { AccountLockout } from './lockout';
import type { Mailer } from './mailer';
import type { TokenSigner } from './tokens';

/** What the auth services need, passed in explicitly (no globals). */
export interface AuthDeps {
  config: Config;
  databases: TenantDatabases;
  tokens: TokenSigner;
  mailer: Mailer;
  background: BackgroundTasks;
  /** A valid hash of a random password: unknown e-mails are verified against it, for equal timing. */
  dummyHash: () => Promise<string>;
  lockout: AccountLockout;
  log: FastifyBaseLogger;
}
