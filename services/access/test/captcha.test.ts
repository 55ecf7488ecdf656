import { createTestFleet, type TestFleet } from '@aplt/testing';
import * as altcha from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge, verifySolution } from '../src/auth/captcha';
import { createAccessAppForTest } from './access-app';

const SECRET = 'captcha-test-secret-0123456789abcdef';

/** Solved by altcha-lib's own client side, as the ALTCHA widget would. */
async function solved(c: Awaited<ReturnType<typeof altcha.createChallenge>>) {
  const solution = await altcha.solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('unsolvable');
  return {
    algorithm: 'SHA-256' as const,
    challenge: c.challenge,
    salt: c.salt,
    signature: c.signature,
    number: solution.number,
  };
}

describe('proof-of-work CAPTCHA (altcha-lib) with replay protection', () => {
  let fleet: TestFleet;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  beforeAll(async () => {
    fleet = await createTestFleet([]);
    app = await createAccessAppForTest(fleet.registry, {});
  });
  afterAll(async () => {
    await app?.close();
    await fleet?.cleanup();
  });

  it('accepts a solution once, from any ALTCHA client, and refuses the replay', async () => {
    const solution = await solved(await createChallenge(SECRET, 2_000));
    expect(await verifySolution(app.accessDb!, SECRET, solution)).toBe('ok');
    expect(await verifySolution(app.accessDb!, SECRET, solution)).toBe('replayed');
  });

  it('refuses a wrong number, another key, a lapsed challenge and one that never lapses', async () => {
    const solution = await solved(await createChallenge(SECRET, 2_000));
    expect(await verifySolution(app.accessDb!, SECRET, { ...solution, number: solution.number + 1 })).toBe(
      'invalid',
    );
    expect(await verifySolution(app.accessDb!, 'another-key-0123456789abcdef', solution)).toBe('invalid');
    const lapsed = await altcha.createChallenge({
      hmacKey: SECRET,
      maxNumber: 2_000,
      expires: new Date(Date.now() - 1_000),
    });
    expect(await verifySolution(app.accessDb!, SECRET, await solved(lapsed))).toBe('expired');
    const forever = await altcha.createChallenge({ hmacKey: SECRET, maxNumber: 2_000 });
    expect(await verifySolution(app.accessDb!, SECRET, await solved(forever))).toBe('invalid');
    // None of them was spent: the genuine one still counts once.
    expect(await verifySolution(app.accessDb!, SECRET, solution)).toBe('ok');
  });
});
