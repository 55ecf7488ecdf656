import { redirect } from 'next/navigation';

/** The shop opens in Dutch, the tenants' default language. */
export default function Home(): never {
  redirect('/nl');
}
