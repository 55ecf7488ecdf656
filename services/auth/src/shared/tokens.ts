import { randomUUID } from 'node:crypto';
import type { TenantRecord } from '@aplt/db';
import { type ActorClaims, signActorToken, tenantJwtSecret, verifyActorToken } from '@aplt/http';

/** Medusa's reset-token claims plus a stored id (jti) that makes each token single use. */
export interface ResetClaims {
  entity_id: string;
  provider: string;
  actor_type: string;
  jti: string;
}

/** A pending second factor: password checked, code not yet. Never accepted as a session. */
export interface OtpPendingClaims {
  actor_type: 'customer_otp';
  email: string;
  auth_identity_id: string;
  customer_id: string;
  remember_me: boolean;
}

export class TokenSigner {
  constructor(private readonly masterSecret: string) {}

  key(tenant: TenantRecord): Uint8Array {
    return tenantJwtSecret(this.masterSecret, tenant.id);
  }

  sessionToken(
    tenant: TenantRecord,
    claims: {
      actor_id: string;
      actor_type: string;
      auth_identity_id: string;
      app_metadata: Record<string, unknown>;
    },
    ttlSeconds: number,
    /** When the login began, before it read the credentials (see signActorToken). */
    issuedAtMs?: number,
  ): Promise<string> {
    return signActorToken(this.key(tenant), claims, ttlSeconds, issuedAtMs);
  }

  /** Any token signed with this tenant's key, unexpired; the caller checks what it claims. */
  verifySession(tenant: TenantRecord, token: string) {
    return verifyActorToken<Partial<ActorClaims> & { iat_ms?: number }>(this.key(tenant), token);
  }

  async resetToken(
    tenant: TenantRecord,
    claims: Omit<ResetClaims, 'jti'>,
    ttlSeconds: number,
  ): Promise<{ token: string; jti: string }> {
    const jti = randomUUID();
    return { token: await signActorToken(this.key(tenant), { ...claims, jti }, ttlSeconds), jti };
  }

  async verifyReset(tenant: TenantRecord, token: string): Promise<ResetClaims | undefined> {
    const claims = await verifyActorToken<Partial<ResetClaims>>(this.key(tenant), token);
    if (
      !claims ||
      typeof claims.entity_id !== 'string' ||
      typeof claims.provider !== 'string' ||
      typeof claims.actor_type !== 'string' ||
      typeof claims.jti !== 'string'
    )
      return undefined;
    return claims as ResetClaims;
  }

  otpPending(
    tenant: TenantRecord,
    claims: Omit<OtpPendingClaims, 'actor_type'>,
    ttlSeconds: number,
    issuedAtMs?: number,
  ) {
    return signActorToken(
      this.key(tenant),
      { ...claims, actor_type: 'customer_otp' },
      ttlSeconds,
      issuedAtMs,
    );
  }

  async verifyOtpPending(
    tenant: TenantRecord,
    token: string,
  ): Promise<(OtpPendingClaims & { iat: number; iat_ms?: number }) | undefined> {
    const claims = await verifyActorToken<Partial<OtpPendingClaims>>(this.key(tenant), token);
    if (
      !claims ||
      claims.actor_type !== 'customer_otp' ||
      typeof claims.email !== 'string' ||
      typeof claims.auth_identity_id !== 'string' ||
      typeof claims.customer_id !== 'string'
    )
      return undefined;
    return claims as OtpPendingClaims & { iat: number; iat_ms?: number };
  }
}
