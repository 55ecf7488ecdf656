import { conflict, unprocessable } from '@aplt/http';
import { confirmPassword, type LoginDeps } from './login.service';
import { newRecoveryCodes, recoveryCodeHash } from '@aplt/passwords';
import { acceptedStep, enrolmentOf, newTotpSecret, openSecret, sealSecret } from './totp';
import * as repo from './totp.repository';

/** An enrolment left unfinished this long must be started again (its QR code was on a screen). */
const ENROLMENT_SECONDS = 600;

export async function totpStatus(deps: Pick<LoginDeps, 'db'>, userId: number) {
  const state = await repo.totpState(deps.db, userId);
  return {
    enabled: state?.totp_enabled_at != null,
    enabled_at: state?.totp_enabled_at?.toISOString() ?? null,
    recovery_codes_left: state?.totp_enabled_at ? state.recovery_codes_left : 0,
  };
}

/**
 * Step 1 of an enrolment (password confirmed): a fresh secret, shown once as a QR code and as
 * text. It is kept sealed as pending until a code from the app proves the app holds it.
 */
export async function startEnrolment(deps: LoginDeps, userId: number, password: string, ip: string) {
  const user = await confirmPassword(deps, userId, password, ip);
  if (user.totp_enabled_at) throw conflict('An authenticator app is already set up; remove it first');
  const secret = newTotpSecret();
  await repo.setPendingSecret(
    deps.db,
    userId,
    sealSecret(deps.config.ACCESS_TOTP_KEY, userId, secret),
    ENROLMENT_SECONDS,
  );
  return { secret, ...(await enrolmentOf(secret, user.email)), expires_in: ENROLMENT_SECONDS };
}

/**
 * Step 2: a code from the app. From now on the login asks for the app's code instead of sending
 * one. The recovery codes are returned this once; only their hashes are kept.
 */
export async function finishEnrolment(deps: LoginDeps, userId: number, code: string) {
  const pending = await repo.livePendingSecret(deps.db, userId);
  if (!pending) throw conflict('No authenticator set-up in progress, or it expired; start again');
  const secret = openSecret(deps.config.ACCESS_TOTP_KEY, userId, pending);
  const step = secret ? await acceptedStep(secret, code, null) : null;
  if (step === null || !secret)
    throw unprocessable('That code does not match; check the app and the time on the phone', {
      code: 'wrong',
    });
  const codes = newRecoveryCodes();
  const enabled = await deps.db.transaction().execute((trx) =>
    repo.enableTotp(trx, userId, {
      pendingSealed: pending,
      sealed: sealSecret(deps.config.ACCESS_TOTP_KEY, userId, secret),
      step,
      recoveryHashes: codes.map(recoveryCodeHash),
    }),
  );
  if (!enabled) throw conflict('The set-up was finished or cancelled meanwhile; start again');
  return { enabled: true as const, recovery_codes: codes };
}

/** Back to e-mailed codes (password confirmed); the recovery codes go too. */
export async function removeAuthenticator(deps: LoginDeps, userId: number, password: string, ip: string) {
  await confirmPassword(deps, userId, password, ip);
  const removed = await deps.db.transaction().execute((trx) => repo.disableTotp(trx, userId));
  if (!removed) throw conflict('No authenticator app is set up');
  return { enabled: false as const };
}

/** A new set of recovery codes (password confirmed); the old ones stop working. */
export async function renewRecoveryCodes(deps: LoginDeps, userId: number, password: string, ip: string) {
  const user = await confirmPassword(deps, userId, password, ip);
  if (!user.totp_enabled_at)
    throw conflict('Recovery codes come with an authenticator app; set one up first');
  const codes = newRecoveryCodes();
  await deps.db
    .transaction()
    .execute((trx) => repo.replaceRecoveryCodes(trx, userId, codes.map(recoveryCodeHash)));
  return { recovery_codes: codes };
}
