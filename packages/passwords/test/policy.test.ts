import { describe, expect, it } from 'vitest';
import {
  COMMERCE_PASSWORD_POLICY,
  passwordProblems,
  PORTAL_PASSWORD_POLICY,
  STAFF_PASSWORD_POLICY,
} from '../src';

describe('passwordProblems', () => {
  it('staff: 12+ characters of all four kinds, each missing kind named', () => {
    expect(passwordProblems('Correct-Horse-9', STAFF_PASSWORD_POLICY)).toEqual([]);
    expect(passwordProblems('short', STAFF_PASSWORD_POLICY)).toEqual([
      'at least 12 characters',
      'an upper-case letter',
      'a digit',
      'a symbol',
    ]);
    expect(passwordProblems('ALLUPPERCASE1!', STAFF_PASSWORD_POLICY)).toEqual(['a lower-case letter']);
    expect(passwordProblems(`Aa1!${'x'.repeat(997)}`, STAFF_PASSWORD_POLICY)).toEqual([
      'at most 1000 characters',
    ]);
  });

  it('portal: the staff rules, at most 72 characters (bcrypt) and not containing the e-mail name', () => {
    expect(passwordProblems('Correct-Horse-9', PORTAL_PASSWORD_POLICY, 'jan@example.nl')).toEqual([]);
    expect(passwordProblems('My-Jansen-Pass-9', PORTAL_PASSWORD_POLICY, 'jansen@example.nl')).toEqual([
      'not containing your e-mail name',
    ]);
    expect(passwordProblems(`Aa1!${'x'.repeat(69)}`, PORTAL_PASSWORD_POLICY, 'a@b.nl')).toEqual([
      'at most 72 characters (bcrypt reads no further)',
    ]);
  });

  it('commerce: 10 to 128 characters, letters and digits, not the e-mail address itself', () => {
    expect(passwordProblems('horses1234', COMMERCE_PASSWORD_POLICY, 'jan@example.nl')).toEqual([]);
    expect(passwordProblems('onlyletters', COMMERCE_PASSWORD_POLICY)).toEqual(['letters and digits']);
    expect(passwordProblems('JAN1@example.nl', COMMERCE_PASSWORD_POLICY, 'jan1@example.nl')).toEqual([
      'not the e-mail address',
    ]);
    expect(passwordProblems(`a1${'x'.repeat(127)}`, COMMERCE_PASSWORD_POLICY)).toEqual([
      'at most 128 characters',
    ]);
  });
});
