import { cookies } from 'next/headers';

/**
 * The customer's session: the store JWT in cookie `_commerce_jwt` (spec 1: httpOnly, sameSite
 * strict, 7 days, 30 with remember-me). The account module writes it; every module reads it here.
 */
export const CUSTOMER_COOKIE = '_commerce_jwt';

export async function customerToken(): Promise<string | undefined> {
  return (await cookies()).get(CUSTOMER_COOKIE)?.value || undefined;
}
