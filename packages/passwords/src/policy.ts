/**
 * The one home of the password rules. Each service names its policy here instead of keeping its
 * own copy of the checks; `passwordProblems` lists what a password still needs, in a fixed order
 * (length, character classes, e-mail), as short phrases the services put into their error bodies.
 */
export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  /** Why the maximum exists, shown with it (e.g. the hash reads no further). */
  maxLengthReason?: string;
  /** `mixed`: lower case, upper case, a digit and a symbol; `letters-and-digits`: at least one of each. */
  characters: 'mixed' | 'letters-and-digits';
  /**
   * `local-part`: the password must not contain the e-mail's name (when it has 4+ characters);
   * `whole`: the password must not be the e-mail address itself.
   */
  email: 'local-part' | 'whole' | 'ignored';
}

/** Staff of the platform (access users): 12+ characters of all four kinds; 1000 is the routes' cap. */
export const STAFF_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 12,
  maxLength: 1000,
  characters: 'mixed',
  email: 'ignored',
};

/** Portal users: the staff rules, at most 72 characters (bcrypt) and not containing the e-mail name. */
export const PORTAL_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 12,
  maxLength: 72,
  maxLengthReason: 'bcrypt reads no further',
  characters: 'mixed',
  email: 'local-part',
};

/**
 * Commerce admins and storefront customers (auth, Medusa-compatible scrypt): 10 to 128 characters,
 * letters and digits, not the e-mail address. The admin panel's form schema mirrors these rules.
 */
export const COMMERCE_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 10,
  maxLength: 128,
  characters: 'letters-and-digits',
  email: 'whole',
};

/** What the password still needs under the policy; empty when it passes. */
export function passwordProblems(password: string, policy: PasswordPolicy, email?: string): string[] {
  const problems: string[] = [];
  if (password.length < policy.minLength) problems.push(`at least ${policy.minLength} characters`);
  if (password.length > policy.maxLength)
    problems.push(
      `at most ${policy.maxLength} characters${policy.maxLengthReason ? ` (${policy.maxLengthReason})` : ''}`,
    );
  if (policy.characters === 'mixed') {
    if (!/[a-z]/.test(password)) problems.push('a lower-case letter');
    if (!/[A-Z]/.test(password)) problems.push('an upper-case letter');
    if (!/\d/.test(password)) problems.push('a digit');
    if (!/[^A-Za-z0-9]/.test(password)) problems.push('a symbol');
  } else if (!/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) {
    problems.push('letters and digits');
  }
  if (email && policy.email === 'local-part') {
    const local = email.split('@')[0]?.toLowerCase() ?? '';
    if (local.length >= 4 && password.toLowerCase().includes(local))
      problems.push('not containing your e-mail name');
  }
  if (email && policy.email === 'whole' && password.toLowerCase() === email.toLowerCase())
    problems.push('not the e-mail address');
  return problems;
}
