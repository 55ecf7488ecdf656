import type { ReactNode } from 'react';

/** Sign-in, sign-up and verification: one narrow card, no account menu (there is no session yet). */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <section className="account-card narrow-card">{children}</section>;
}
