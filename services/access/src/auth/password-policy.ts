import { verifyPassword } from '@aplt/passwords';

/** Complexity: 12+ characters with lower case, upper case, a digit and a symbol. */
export function complexityProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 12) problems.push('at least 12 characters');
  if (!/[a-z]/.test(password)) problems.push('a lower-case letter');
  if (!/[A-Z]/.test(password)) problems.push('an upper-case letter');
  if (!/\d/.test(password)) problems.push('a digit');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('a symbol');
  return problems;
}

export function isExpired(changedAt: Date, maxAgeDays: number, now = new Date()): boolean {
  return now.getTime() - changedAt.getTime() > maxAgeDays * 86_400_000;
}

/** True when the password matches one of the given (most recent) hashes. */
export async function reusesHistory(password: string, hashes: string[]): Promise<boolean> {
  for (const hash of hashes) if (await verifyPassword(hash, password)) return true;
  return false;
}
