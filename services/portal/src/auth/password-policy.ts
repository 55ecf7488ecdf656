import { PORTAL_PASSWORD_POLICY, passwordProblems as problemsUnder } from '@aplt/passwords';

/** A portal password's problems under the portal policy of @aplt/passwords (checked against the e-mail). */
export const passwordProblems = (password: string, email: string): string[] =>
  problemsUnder(password, PORTAL_PASSWORD_POLICY, email);
