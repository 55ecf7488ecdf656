import bcrypt from 'bcrypt';

/** Portal passwords are bcrypt hashes (spec 1, authentication 4); seeds and the service share this. */
export function hashPortalPassword(password: string, rounds = 12): Promise<string> {
  return bcrypt.hash(password, rounds);
}
