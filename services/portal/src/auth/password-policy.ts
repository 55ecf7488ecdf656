/** Complexity: 12+ characters with lower case, upper case, a digit and a symbol; not the e-mail. */
export function passwordProblems(password: string, email: string): string[] {
  const problems: string[] = [];
  if (password.length < 12) problems.push('at least 12 characters');
  if (password.length > 72) problems.push('at most 72 characters (bcrypt reads no further)');
  if (!/[a-z]/.test(password)) problems.push('a lower-case letter');
  if (!/[A-Z]/.test(password)) problems.push('an upper-case letter');
  if (!/\d/.test(password)) problems.push('a digit');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('a symbol');
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 4 && password.toLowerCase().includes(local))
    problems.push('not containing your e-mail name');
  return problems;
}
