import type { PortalDb } from '../db';
import { badRequest, HttpError, safeEqual, tooManyRequests, unauthorized } from '@aplt/http';
import bcrypt from 'bcrypt';
import type { Config } from '../config';
import * as failures from './login-failure.repository';
import type { OtpChannel } from './otp-channel';
import * as otp from './otp.repository';
import { hashPortalPassword } from './password-hash';
import { passwordProblems } from './password-policy';
import * as sessions from './session.repository';
import { codeHash, newCode, newSessionToken } from './tokens';
import * as users from './user.repository';

export interface AuthDeps {
  db: PortalDb;
  config: Config;
  otp: OtpChannel;
  /** A bcrypt hash of nothing, compared against for unknown e-mails so they take as long as known ones. */
  dummyHash: string;
}

export type LoginResult = { ok: false } | { ok: true; sessionToken: string; email: string };

/**
 * Password step. Unknown e-mail, inactive user and wrong password look the same to the caller
 * (same answer, one bcrypt comparison each). Success opens a session that still needs the
 * second factor and sends the code; a code that cannot be sent undoes the session.
 */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; ip: string; userAgent: string | null },
): Promise<LoginResult> {
  const { db, config } = deps;
  const email = input.email.trim().toLowerCase();
  // One atomic step per attempt, before any password is checked: the attempt is recorded first,
  // then the attempts recorded so far are counted, so concurrent guesses cannot all pass one check.
  const attempt = await failures.recordAttempt(db, email, input.ip, config.PORTAL_LOGIN_WINDOW_SECONDS);
  if (
    attempt.byEmail > config.PORTAL_LOGIN_MAX_FAILURES ||
    attempt.byIp > config.PORTAL_LOGIN_MAX_FAILURES * 5
  ) {
    // A refused attempt checked nothing, so it does not count (nor prolong the lockout).
    await failures.forgetAttempt(db, attempt.id);
    throw tooManyRequests('Too many failed logins; try again later', config.PORTAL_LOGIN_WINDOW_SECONDS);
  }

  const user = await users.findActiveByEmail(db, email);
  const matches = await bcrypt.compare(input.password, user?.password_hash ?? deps.dummyHash);
  // A failed attempt stays recorded: it is one of the failures the window counts.
  if (!user || !matches) return { ok: false };
  await failures.clearFailures(db, email);

  const { token, id } = newSessionToken();
  const code = newCode();
  // Housekeeping on the (rare) successful login keeps the table small without a cron job.
  await sessions.deleteExpiredSessions(db);
  await failures.deleteOldFailures(db, config.PORTAL_LOGIN_WINDOW_SECONDS);
  await db.transaction().execute(async (trx) => {
    await sessions.insertSession(trx, {
      id,
      user_id: user.id,
      expires_at: new Date(Date.now() + config.PORTAL_SESSION_DAYS * 86_400_000),
      ip: input.ip.slice(0, 64),
      user_agent: input.userAgent?.slice(0, 255) ?? null,
    });
    await otp.insertCode(trx, {
      session_id: id,
      code_hash: codeHash(id, code),
      ttlSeconds: config.PORTAL_OTP_TTL_SECONDS,
    });
  });
  try {
    await deps.otp.send(user.email, code);
  } catch (err) {
    await sessions.deleteSession(db, id);
    throw new HttpError(503, 'unavailable', 'The verification code could not be sent; try again later', {
      cause: (err as Error).message,
    });
  }
  return { ok: true, sessionToken: token, email: user.email };
}

/** Second step: the newest code of this session, within its lifetime and attempt budget. */
export async function verifySecondFactor(deps: AuthDeps, sessionId: string, code: string): Promise<void> {
  const { db, config } = deps;
  const outcome = await db.transaction().execute(async (trx) => {
    const current = await otp.lockCurrentCode(trx, sessionId);
    if (!current || current.expired || current.attempts >= config.PORTAL_OTP_MAX_ATTEMPTS)
      return { ok: false as const, expired: true, left: 0 };
    if (!safeEqual(codeHash(sessionId, code), current.code_hash)) {
      await otp.recordAttempt(trx, current.id);
      return {
        ok: false as const,
        expired: false,
        left: config.PORTAL_OTP_MAX_ATTEMPTS - current.attempts - 1,
      };
    }
    await otp.markUsed(trx, current.id);
    await sessions.markSecondFactorPassed(trx, sessionId);
    return { ok: true as const };
  });
  if (outcome.ok) return;
  if (outcome.expired || outcome.left <= 0)
    throw unauthorized('The verification code has expired or was tried too often; log in again', {
      login_required: true,
    });
  throw unauthorized('Invalid verification code', { attempts_left: outcome.left });
}

/** Checks the current password, applies the policy, stores the new hash and ends every other session. */
export async function changePassword(
  deps: AuthDeps,
  input: { userId: number; sessionId: string; currentPassword: string; newPassword: string },
): Promise<{ other_sessions_ended: number }> {
  const user = await users.findById(deps.db, input.userId);
  if (!user) throw unauthorized();
  if (!(await bcrypt.compare(input.currentPassword, user.password_hash)))
    throw badRequest('The current password is not correct', { field: 'current_password' });
  const problems = passwordProblems(input.newPassword, user.email);
  if (input.newPassword === input.currentPassword) problems.push('different from the current password');
  if (problems.length)
    throw badRequest(`The new password needs ${problems.join(', ')}`, {
      issues: problems.map((p) => ({ path: 'new_password', message: p })),
    });
  const hash = await hashPortalPassword(input.newPassword, deps.config.PORTAL_BCRYPT_ROUNDS);
  return deps.db.transaction().execute(async (trx) => {
    await users.setPassword(trx, user.id, hash);
    return { other_sessions_ended: await sessions.deleteOtherSessions(trx, user.id, input.sessionId) };
  });
}
