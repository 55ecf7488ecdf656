import { type CommerceDatabase, revokeTokensBefore, spendResetTokens, type TenantRecord } from '@aplt/db';
import { unauthorized } from '@aplt/http';
import { hashPassword } from '@aplt/passwords';
import { checkCredentials } from '../shared/credentials.service';
import type { AuthDeps } from '../shared/deps';
import {
  consumeResetToken,
  deleteExpiredResetTokens,
  findIdentity,
  replaceResetToken,
  setPasswordHash,
} from '../shared/identity.repository';
import { customerMailLanguage } from '../customer/customer-auth.service';
import { findCustomer } from '../customer/customer.repository';
import { type MailLanguage, resetPasswordMail } from '../shared/mail-templates';
import { assertPasswordRules } from '../shared/password-rules';
import { linkColumn, tenantLink } from '../shared/request-helpers';

export type ActorType = 'user' | 'customer';
export const INVALID_TOKEN = 'Invalid token';

/**
 * Medusa v2 admin login: a token with the identity's user link (empty actor_id when none). The
 * token is dated from before the password was read, so a login racing a password reset with the
 * old password gets a token the reset revokes.
 */
export async function adminLogin(
  deps: AuthDeps,
  tenant: TenantRecord,
  email: string,
  password: string,
): Promise<string> {
  const startedAt = Date.now();
  const identity = await checkCredentials(deps, tenant, email, password);
  const userId = typeof identity.appMetadata.user_id === 'string' ? identity.appMetadata.user_id : '';
  return deps.tokens.sessionToken(
    tenant,
    {
      actor_id: userId,
      actor_type: 'user',
      auth_identity_id: identity.authIdentityId,
      app_metadata: identity.appMetadata,
    },
    deps.config.JWT_TTL_SECONDS,
    startedAt,
  );
}

/**
 * Always returns after the same single lookup; a known identity's token and e-mail are made in
 * the background so neither the answer nor its timing tells whether the address exists. The
 * link's base is the tenant's registered public URL (admin panel or storefront); a tenant without
 * one gets no e-mail and an error in the log, never a link built from the request's Host.
 * A new token spends every earlier unused one of the identity.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  tenant: TenantRecord,
  actorType: ActorType,
  provider: string,
  identifier: string,
  lang?: MailLanguage,
): Promise<void> {
  const audience = actorType === 'user' ? 'admin' : 'store';
  const path = actorType === 'user' ? '/app/reset-password' : '/reset-password';
  if (!tenantLink(tenant, audience, path, {})) {
    deps.log.error(
      { tenant: tenant.id, actorType, missing: linkColumn(audience) },
      `password reset refused: tenant ${tenant.id} has no public URL in ${linkColumn(audience)}; no e-mail sent`,
    );
    return;
  }
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  const identity = await findIdentity(db, identifier, provider);
  if (!identity || typeof identity.appMetadata[`${actorType}_id`] !== 'string') return;
  const ttl = deps.config.RESET_TOKEN_TTL_SECONDS;
  deps.background.run('reset-password-mail', async () => {
    const { token, jti } = await deps.tokens.resetToken(
      tenant,
      { entity_id: identity.entityId, provider, actor_type: actorType },
      ttl,
    );
    await replaceResetToken(db, { jti, entityId: identity.entityId, provider, actorType, ttlSeconds: ttl });
    await deleteExpiredResetTokens(db);
    // Staff's e-mail stays English; a customer's is in their language (customerMailLanguage).
    const customerId = identity.appMetadata.customer_id;
    const language =
      actorType === 'user'
        ? 'en'
        : await customerMailLanguage(
            deps,
            tenant,
            typeof customerId === 'string'
              ? (await findCustomer(db, customerId))?.metadata?.preferred_language
              : undefined,
            lang,
          );
    // A customer's link carries the e-mail's language, so the storefront opens the page in it.
    const url = tenantLink(tenant, audience, path, {
      token,
      email: identity.entityId,
      ...(actorType === 'user' ? {} : { lang: language }),
    })!;
    await deps.mailer.send(
      resetPasswordMail({
        brand: tenant.name,
        to: identity.entityId,
        url,
        minutes: Math.round(ttl / 60),
        lang: language,
      }),
    );
    deps.log.info({ tenant: tenant.id, actorType }, 'password reset e-mail sent');
  });
}

/**
 * Sets a new password with a reset token. The token must be ours (tenant key), for this actor
 * type and provider, unexpired and unused. In one transaction: the token is spent, the hash
 * written, every other unused reset token of the identity spent, and every session token issued
 * before now revoked (JWTs and the cookie sessions that carry them, admin and customer alike).
 */
export async function updatePasswordWithToken(
  deps: AuthDeps,
  tenant: TenantRecord,
  actorType: ActorType,
  provider: string,
  bearer: string | undefined,
  password: string,
): Promise<{ entityId: string }> {
  const claims = bearer ? await deps.tokens.verifyReset(tenant, bearer) : undefined;
  if (!claims || claims.actor_type !== actorType || claims.provider !== provider) {
    throw unauthorized(INVALID_TOKEN);
  }
  assertPasswordRules(password, claims.entity_id);
  const hash = await hashPassword(password);
  await deps.databases
    .commerce<CommerceDatabase>(tenant)
    .transaction()
    .execute(async (trx) => {
      const fresh = await consumeResetToken(trx, {
        jti: claims.jti,
        entityId: claims.entity_id,
        provider,
        actorType,
      });
      if (!fresh) throw unauthorized(INVALID_TOKEN);
      const changedAt = new Date();
      const authIdentityId = await setPasswordHash(trx, claims.entity_id, provider, hash, changedAt);
      if (!authIdentityId) throw unauthorized(INVALID_TOKEN);
      await spendResetTokens(trx, claims.entity_id, provider);
      await revokeTokensBefore(trx, authIdentityId, changedAt);
    });
  deps.log.info({ tenant: tenant.id, actorType }, 'password changed: earlier tokens and reset links revoked');
  return { entityId: claims.entity_id };
}
