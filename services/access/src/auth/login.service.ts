import { randomBytes } from 'node:crypto';
import { badRequest, HttpError, safeEqual, tooManyRequests, unauthorized, unprocessable } from '@aplt/http';
import { hashPassword, recoveryCodeHash, verifyPassword } from '@aplt/passwords';
import type { Config } from '../config';
import type { AccessDb } from '../db';
import { type CaptchaSolution, verifySolution } from './captcha';
import * as challenges from './challenge.repository';
import { accountKey, addressKey, throttleKeys } from './throttle-keys';
import type { OtpChannel } from './otp-channel';
import { complexityProblems, isExpired, reusesHistory } from './password-policy';
import { insertDeviceToken, insertSession } from './session.repository';
import * as throttle from './throttle.repository';
import { newOtpCode, newToken, tokenHash } from './tokens';
import { acceptedStep, openSecret } from './totp';
import * as totp from './totp.repository';
import * as users from './user.repository';

/** The challenge channel of a user with an authenticator app: the code is not sent. */
export const AUTHENTICATOR_CHANNEL = 'authenticator';

export interface LoginDeps {
  db: AccessDb;
  config: Config;
  otp: OtpChannel;
}

const limitsOf = (c: Config): throttle.Limits => ({
  max: c.ACCESS_MAX_FAILURES,
  windowSeconds: c.ACCESS_FAILURE_WINDOW_SECONDS,
  banSeconds: c.ACCESS_BAN_SECONDS,
});

/**
 * Counts this attempt on the account and the address before anything is checked (one atomic
 * step, so concurrent guesses cannot all slip under the limit); 429 once either is used up.
 */
async function reserveAttempt(deps: LoginDeps, keys: string[]): Promise<void> {
  const r = await throttle.reserveAttempt(deps.db, keys, limitsOf(deps.config));
  if (r.allowed) return;
  // Not checked, so not a guess: only the attempts that were checked stay counted.
  await throttle.refundAttempt(deps.db, keys, deps.config.ACCESS_MAX_FAILURES);
  throw tooManyRequests(
    `Too many failed attempts; try again in ${r.retryAfterSeconds} seconds`,
    r.retryAfterSeconds,
  );
}

// A fixed hash to verify against when the account does not exist, so timing does not reveal it.
let dummyHash: Promise<string> | null = null;

/** Step 1: CAPTCHA, e-mail and password; on success a one-time code goes out over the channel. */
export async function startLogin(
  deps: LoginDeps,
  input: { email: string; password: string; captcha: CaptchaSolution; trust_device?: boolean | undefined },
  ip: string,
) {
  // The CAPTCHA first: without a solved one an attempt costs the caller nothing, so it must not
  // count against the account either (or anyone could lock anyone out for free).
  const verdict = await verifySolution(deps.db, deps.config.ACCESS_CAPTCHA_SECRET, input.captcha);
  if (verdict !== 'ok')
    throw badRequest(`CAPTCHA ${verdict === 'invalid' ? 'not solved' : verdict}`, { captcha: verdict });
  const keys = throttleKeys(input.email, ip);
  await reserveAttempt(deps, keys);
  const user = await users.findUserByEmail(deps.db, input.email);
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  const ok = user
    ? !user.disabled && (await verifyPassword(user.password_hash, input.password))
    : (await verifyPassword(await dummyHash, input.password)) && false;
  // A wrong password stays counted; a right one is given back.
  if (!user || !ok) throw unauthorized('Invalid e-mail or password');
  await throttle.refundAttempt(deps.db, keys, deps.config.ACCESS_MAX_FAILURES);
  const id = newToken();
  if (user.totp_enabled_at) {
    // The code comes from the user's authenticator app: nothing is sent, and the challenge holds
    // no code of its own (a random hash nothing can match).
    await challenges.insertChallenge(deps.db, {
      id: tokenHash(id),
      userId: user.id,
      codeHash: tokenHash(newToken()),
      channel: AUTHENTICATOR_CHANNEL,
      trustDevice: input.trust_device ?? false,
      ip,
      ttlSeconds: deps.config.ACCESS_OTP_TTL_SECONDS,
    });
    return {
      step: 'otp' as const,
      challenge_id: id,
      channel: AUTHENTICATOR_CHANNEL,
      expires_in: deps.config.ACCESS_OTP_TTL_SECONDS,
    };
  }
  const code = newOtpCode();
  await challenges.insertChallenge(deps.db, {
    id: tokenHash(id),
    userId: user.id,
    codeHash: tokenHash(`${id}:${code}`),
    channel: deps.otp.name,
    trustDevice: input.trust_device ?? false,
    ip,
    ttlSeconds: deps.config.ACCESS_OTP_TTL_SECONDS,
  });
  try {
    await deps.otp.send(user.email, code);
  } catch (err) {
    throw new HttpError(
      502,
      'unexpected_state',
      'The one-time code could not be delivered; try again later',
      {
        channel: deps.otp.name,
        cause: String(err instanceof Error ? err.message : err),
      },
    );
  }
  return {
    step: 'otp' as const,
    challenge_id: id,
    channel: deps.otp.name,
    expires_in: deps.config.ACCESS_OTP_TTL_SECONDS,
  };
}

async function liveChallenge(
  deps: LoginDeps,
  id: string,
  state: 'otp' | 'change_password',
): Promise<challenges.ChallengeRow> {
  const row = await challenges.findLiveChallenge(deps.db, tokenHash(id), state);
  if (!row) throw unauthorized('This sign-in has expired or is unknown; start again');
  return row;
}

export interface IssuedLogin {
  sessionToken: string;
  deviceToken: string | null;
  email: string;
}

async function issue(
  deps: LoginDeps,
  challenge: { id: string; user_id: number; trust_device: boolean },
  ip: string,
  userAgent: string | undefined,
): Promise<IssuedLogin> {
  const sessionToken = newToken();
  const deviceToken = challenge.trust_device ? newToken() : null;
  const user = await users.findUserById(deps.db, challenge.user_id);
  await deps.db.transaction().execute(async (trx) => {
    await challenges.setChallengeState(trx, challenge.id, 'done');
    await insertSession(trx, {
      id: tokenHash(sessionToken),
      userId: challenge.user_id,
      ip,
      userAgent,
      hours: deps.config.ACCESS_SESSION_HOURS,
    });
    if (deviceToken)
      await insertDeviceToken(trx, {
        id: tokenHash(deviceToken),
        userId: challenge.user_id,
        label: userAgent?.slice(0, 200),
        days: deps.config.ACCESS_DEVICE_TOKEN_DAYS,
      });
  });
  return { sessionToken, deviceToken, email: user!.email };
}

/**
 * Whether the second factor is right: the authenticator app's code (once per time step), a
 * recovery code of a user with an authenticator (spent), or the code that was sent.
 */
async function secondFactorHolds(
  deps: LoginDeps,
  challenge: challenges.ChallengeRow,
  user: users.UserRow,
  input: { challenge_id: string; code?: string | undefined; recovery_code?: string | undefined },
): Promise<boolean> {
  if (input.recovery_code !== undefined)
    return (
      user.totp_enabled_at !== null &&
      (await totp.spendRecoveryCode(deps.db, user.id, recoveryCodeHash(input.recovery_code)))
    );
  if (input.code === undefined) return false;
  if (challenge.channel === AUTHENTICATOR_CHANNEL) {
    const state = await totp.totpSecretOf(deps.db, user.id);
    const secret = state?.totp_secret
      ? openSecret(deps.config.ACCESS_TOTP_KEY, user.id, state.totp_secret)
      : null;
    if (!state || !secret) return false;
    const step = await acceptedStep(secret, input.code, state.totp_last_step);
    return step !== null && (await totp.claimStep(deps.db, user.id, step));
  }
  return safeEqual(tokenHash(`${input.challenge_id}:${input.code}`), challenge.code_hash);
}

/** Step 2: the second factor. Then either a session, or a forced password change first. */
export async function verifyCode(
  deps: LoginDeps,
  input: { challenge_id: string; code?: string | undefined; recovery_code?: string | undefined },
  ip: string,
  userAgent: string | undefined,
): Promise<
  | { step: 'change_password'; challenge_id: string; problems: string[] }
  | { step: 'done'; issued: IssuedLogin }
> {
  const challenge = await liveChallenge(deps, input.challenge_id, 'otp');
  const user = await users.findUserById(deps.db, challenge.user_id);
  const keys = throttleKeys(user!.email, ip);
  await reserveAttempt(deps, keys);
  // Five codes per challenge, counted before the check like the attempts above.
  if (!(await challenges.countCodeAttempt(deps.db, challenge.id, 5)))
    throw unauthorized('Too many wrong codes; start again');
  if (!(await secondFactorHolds(deps, challenge, user!, input)))
    throw unauthorized(
      input.recovery_code !== undefined ? 'Wrong or spent recovery code' : 'Wrong one-time code',
    );
  // Signed in: the account starts afresh, and this attempt was no guess from the address.
  await throttle.clearFailures(deps.db, [keys[0]!]);
  await throttle.refundAttempt(deps.db, [keys[1]!], deps.config.ACCESS_MAX_FAILURES);
  if (
    user!.must_change_password ||
    isExpired(user!.password_changed_at, deps.config.ACCESS_PASSWORD_MAX_AGE_DAYS)
  ) {
    await challenges.setChallengeState(deps.db, challenge.id, 'change_password');
    return { step: 'change_password', challenge_id: input.challenge_id, problems: ['password expired'] };
  }
  return { step: 'done', issued: await issue(deps, challenge, ip, userAgent) };
}

/** Complexity and history rules; stores the new hash and its history entry. */
export async function changePassword(deps: LoginDeps, userId: number, newPassword: string): Promise<void> {
  const problems = complexityProblems(newPassword);
  if (problems.length) throw unprocessable(`Password needs ${problems.join(', ')}`, { problems });
  const user = await users.findUserById(deps.db, userId);
  const history = await users.recentPasswordHashes(deps.db, userId, deps.config.ACCESS_PASSWORD_HISTORY);
  if (await reusesHistory(newPassword, [user!.password_hash, ...history]))
    throw unprocessable(
      `Password was used recently; the last ${deps.config.ACCESS_PASSWORD_HISTORY} cannot be reused`,
      {
        problems: ['reused'],
      },
    );
  await users.setPassword(deps.db, userId, await hashPassword(newPassword));
}

/** Forced change during login (expired password): then the session is issued. */
export async function completePasswordChange(
  deps: LoginDeps,
  input: { challenge_id: string; new_password: string },
  ip: string,
  userAgent: string | undefined,
): Promise<IssuedLogin> {
  const challenge = await liveChallenge(deps, input.challenge_id, 'change_password');
  await changePassword(deps, challenge.user_id, input.new_password);
  return issue(deps, challenge, ip, userAgent);
}

/** The CLI's and the seed's way in: policy-checked, history started. */
export async function createUser(
  deps: Pick<LoginDeps, 'db'>,
  input: {
    email: string;
    password: string;
    roles: string[];
    tenantId?: string | null;
    mustChangePassword?: boolean;
  },
) {
  const problems = complexityProblems(input.password);
  if (problems.length) throw unprocessable(`Password needs ${problems.join(', ')}`, { problems });
  const hash = await hashPassword(input.password);
  return deps.db.transaction().execute(async (trx) => {
    const user = await users.insertUser(trx, {
      email: input.email,
      passwordHash: hash,
      roles: input.roles,
      tenantId: input.tenantId ?? null,
      mustChangePassword: input.mustChangePassword ?? false,
    });
    await users.insertPasswordHistory(trx, user.id, hash);
    return user;
  });
}

export async function unban(
  db: AccessDb,
  target: { email?: string | undefined; ip?: string | undefined },
): Promise<number> {
  const keys = [
    ...(target.email ? [accountKey(target.email)] : []),
    ...(target.ip ? [addressKey(target.ip)] : []),
  ];
  if (!keys.length) throw badRequest('Give email or ip to unban');
  return throttle.clearFailures(db, keys);
}

/** A signed-in user changing their own password: the current one proves it is them. */
export async function changeOwnPassword(
  deps: LoginDeps,
  identity: { userId: number },
  currentPassword: string,
  newPassword: string,
  ip: string,
): Promise<void> {
  await confirmPassword(deps, identity.userId, currentPassword, ip);
  await changePassword(deps, identity.userId, newPassword);
}

/**
 * A signed-in user proving it is them before a change to their credentials (a stolen session
 * alone must not be enough). Wrong passwords count against the account and the address like
 * login attempts.
 */
export async function confirmPassword(
  deps: LoginDeps,
  userId: number,
  password: string,
  ip: string,
): Promise<users.UserRow> {
  const user = await users.findUserById(deps.db, userId);
  if (!user) throw unauthorized('Current password is wrong');
  const keys = throttleKeys(user.email, ip);
  await reserveAttempt(deps, keys);
  if (!(await verifyPassword(user.password_hash, password))) throw unauthorized('Current password is wrong');
  await throttle.refundAttempt(deps.db, keys, deps.config.ACCESS_MAX_FAILURES);
  return user;
}
