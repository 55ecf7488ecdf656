import Link from 'next/link';
import { notFound } from 'next/navigation';
import { isLang, t } from '@lib/i18n';
import { cartTexts } from '@modules/cart/texts';

/** After the quotation request: its number (only the number's shape is shown, nothing looked up). */
export default async function QuoteConfirmedPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ number?: string }>;
}) {
  const { lang } = await params;
  if (!isLang(lang)) notFound();
  const { number } = await searchParams;
  if (!number || !/^Q-\d{4}-\d{4,}$/.test(number)) notFound();
  const tx = cartTexts(lang);
  return (
    <div className="cart-confirmed" data-testid="quote-confirmed">
      <h1>{tx.confirmedTitle}</h1>
      <p>
        {tx.confirmed(number).split(number)[0]}
        <strong data-testid="quotation-number">{number}</strong>
        {tx.confirmed(number).split(number)[1]}
      </p>
      <Link href={`/${lang}`}>{t(lang).allProducts}</Link>
    </div>
  );
}
