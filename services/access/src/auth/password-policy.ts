import { passwordProblems, STAFF_PASSWORD_POLICY, verifyPassword } from '@aplt/passwords';

/** Complexity of an access user's password: the staff policy of @aplt/passwords. */
export const complexityProblems = (password: string): string[] =>
  passwordProblems(password, STAFF_PASSWORD_POLICY);

export function isExpired(changedAt: Date, maxAgeDays: number, now = new Date()): boolean {
  return now.getTime() - changedAt.getTime() > maxAgeDays * 86_400_000;
}

/** True when the password matches one of the given (most recent) hashes. */
export async function reusesHistory(password: string, hashes: string[]): Promise<boolean> {
  for (const hash of hashes) if (await verifyPassword(hash, password)) return true;
  return false;
}
