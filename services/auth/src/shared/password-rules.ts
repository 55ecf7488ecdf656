import { badRequest } from '@aplt/http';

/**
 * One rule set for admin and customer passwords: long enough to resist guessing, not absurdly
 * long (scrypt input), letters and digits mixed, and not the e-mail address itself.
 */
export function assertPasswordRules(password: string, email?: string): void {
  const problems: string[] = [];
  if (password.length < 10) problems.push('at least 10 characters');
  if (password.length > 128) problems.push('at most 128 characters');
  if (!/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) problems.push('letters and digits');
  if (email && password.toLowerCase() === email.toLowerCase()) problems.push('not the e-mail address');
  if (problems.length > 0) {
    throw badRequest(`Password does not meet the rules: ${problems.join(', ')}`, {
      issues: [{ path: 'body.password', message: problems.join(', ') }],
    });
  }
}
