import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';
import '@modules/account/account.css';
import '@modules/cart/cart.css';

export const metadata: Metadata = { title: { default: 'Webshop', template: '%s | Webshop' } };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="nl">
      <body>{children}</body>
    </html>
  );
}
