import { COMMERCE_PASSWORD_POLICY, passwordProblems } from '@aplt/passwords';
import { badRequest } from '@aplt/http';

/**
 * One rule set for admin and customer passwords (the commerce policy of @aplt/passwords): long
 * enough to resist guessing, not absurdly long (scrypt input), letters and digits mixed, and not the
 * e-mail address itself.
 */
export function assertPasswordRules(password: string, email?: string): void {
  const problems = passwordProblems(password, COMMERCE_PASSWORD_POLICY, email);
  if (problems.length > 0) {
    throw badRequest(`Password does not meet the rules: ${problems.join(', ')}`, {
      issues: [{ path: 'body.password', message: problems.join(', ') }],
    });
  }
}
