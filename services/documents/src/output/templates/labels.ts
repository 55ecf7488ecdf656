import Decimal from 'decimal.js';
import type { DocumentKind, Language } from '../document.model';

/** Printed words per language; Dutch is the default and the reference. */
export interface Labels {
  title: Record<DocumentKind, string>;
  proforma: string;
  number: string;
  date: string;
  validUntil: string;
  dueDate: string;
  deliveryDate: string;
  reference: string;
  customerNumber: string;
  orderRef: Record<DocumentKind, string>;
  vatNumber: string;
  coc: string;
  iban: string;
  bic: string;
  phone: string;
  email: string;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  vat: string;
  technique: string;
  position: string;
  colours: string;
  printPrice: string;
  setupCosts: string;
  discount: string;
  subtotal: string;
  shipping: string;
  vatOver: (rate: string, taxable: string) => string;
  total: string;
  terms: string;
  paymentTerms: (days: number, due: string, number: string, iban: string | null) => string;
  credits: (number: string, date: string) => string;
  creditReason: string;
  reverseCharge: string;
  exportOutsideEu: string;
  page: string;
  of: string;
}

const nl: Labels = {
  title: { quotation: 'Offerte', order: 'Orderbevestiging', invoice: 'Factuur', credit_note: 'Creditnota' },
  proforma: 'Proforma factuur',
  number: 'Nummer',
  date: 'Datum',
  validUntil: 'Geldig tot',
  dueDate: 'Vervaldatum',
  deliveryDate: 'Leverdatum',
  reference: 'Uw referentie',
  customerNumber: 'Klantnummer',
  orderRef: { quotation: '', order: 'Offerte', invoice: 'Order', credit_note: 'Order' },
  vatNumber: 'BTW-nummer',
  coc: 'KvK',
  iban: 'IBAN',
  bic: 'BIC',
  phone: 'Tel.',
  email: 'E-mail',
  description: 'Omschrijving',
  quantity: 'Aantal',
  unitPrice: 'Stukprijs',
  amount: 'Bedrag',
  vat: 'BTW',
  technique: 'Bedrukking',
  position: 'positie',
  colours: 'kleur(en)',
  printPrice: 'drukkosten p.st.',
  setupCosts: 'Opstartkosten',
  discount: 'Korting',
  subtotal: 'Subtotaal',
  shipping: 'Verzendkosten',
  vatOver: (rate, taxable) => `BTW ${rate}% over ${taxable}`,
  total: 'Totaal',
  terms: 'Voorwaarden',
  paymentTerms: (days, due, number, iban) =>
    `Wij verzoeken u het totaalbedrag binnen ${days} dagen, uiterlijk ${due}, over te maken` +
    (iban ? ` op ${iban}` : '') +
    ` onder vermelding van factuurnummer ${number}.`,
  credits: (number, date) => `Deze creditnota crediteert factuur ${number} van ${date}.`,
  creditReason: 'Reden',
  reverseCharge: 'BTW verlegd',
  exportOutsideEu: 'Export buiten de EU, 0% btw',
  page: 'Pagina',
  of: 'van',
};

const en: Labels = {
  title: {
    quotation: 'Quotation',
    order: 'Order confirmation',
    invoice: 'Invoice',
    credit_note: 'Credit note',
  },
  proforma: 'Proforma invoice',
  number: 'Number',
  date: 'Date',
  validUntil: 'Valid until',
  dueDate: 'Due date',
  deliveryDate: 'Delivery date',
  reference: 'Your reference',
  customerNumber: 'Customer number',
  orderRef: { quotation: '', order: 'Quotation', invoice: 'Order', credit_note: 'Order' },
  vatNumber: 'VAT number',
  coc: 'Chamber of Commerce',
  iban: 'IBAN',
  bic: 'BIC',
  phone: 'Phone',
  email: 'E-mail',
  description: 'Description',
  quantity: 'Quantity',
  unitPrice: 'Unit price',
  amount: 'Amount',
  vat: 'VAT',
  technique: 'Printing',
  position: 'position',
  colours: 'colour(s)',
  printPrice: 'print price per unit',
  setupCosts: 'Setup costs',
  discount: 'Discount',
  subtotal: 'Subtotal',
  shipping: 'Shipping',
  vatOver: (rate, taxable) => `VAT ${rate}% on ${taxable}`,
  total: 'Total',
  terms: 'Terms',
  paymentTerms: (days, due, number, iban) =>
    `Please pay the total amount within ${days} days, no later than ${due}` +
    (iban ? `, to ${iban}` : '') +
    `, quoting invoice number ${number}.`,
  credits: (number, date) => `This credit note credits invoice ${number} of ${date}.`,
  creditReason: 'Reason',
  reverseCharge: 'VAT reverse charged',
  exportOutsideEu: 'Export outside the EU, zero-rated',
  page: 'Page',
  of: 'of',
};

const de: Labels = {
  title: {
    quotation: 'Angebot',
    order: 'Auftragsbestätigung',
    invoice: 'Rechnung',
    credit_note: 'Gutschrift',
  },
  proforma: 'Proformarechnung',
  number: 'Nummer',
  date: 'Datum',
  validUntil: 'Gültig bis',
  dueDate: 'Fällig am',
  deliveryDate: 'Lieferdatum',
  reference: 'Ihre Referenz',
  customerNumber: 'Kundennummer',
  orderRef: { quotation: '', order: 'Angebot', invoice: 'Auftrag', credit_note: 'Auftrag' },
  vatNumber: 'USt-IdNr.',
  coc: 'Handelsregister (KvK)',
  iban: 'IBAN',
  bic: 'BIC',
  phone: 'Tel.',
  email: 'E-Mail',
  description: 'Beschreibung',
  quantity: 'Menge',
  unitPrice: 'Stückpreis',
  amount: 'Betrag',
  vat: 'MwSt.',
  technique: 'Veredelung',
  position: 'Position',
  colours: 'Farbe(n)',
  printPrice: 'Druckkosten pro Stück',
  setupCosts: 'Einrichtungskosten',
  discount: 'Rabatt',
  subtotal: 'Zwischensumme',
  shipping: 'Versandkosten',
  vatOver: (rate, taxable) => `MwSt. ${rate}% auf ${taxable}`,
  total: 'Gesamt',
  terms: 'Bedingungen',
  paymentTerms: (days, due, number, iban) =>
    `Bitte überweisen Sie den Gesamtbetrag innerhalb von ${days} Tagen, spätestens am ${due}` +
    (iban ? `, auf ${iban}` : '') +
    `, unter Angabe der Rechnungsnummer ${number}.`,
  credits: (number, date) => `Diese Gutschrift bezieht sich auf Rechnung ${number} vom ${date}.`,
  creditReason: 'Grund',
  reverseCharge: 'Steuerschuldnerschaft des Leistungsempfängers (BTW verlegd)',
  exportOutsideEu: 'Ausfuhrlieferung außerhalb der EU, steuerfrei',
  page: 'Seite',
  of: 'von',
};

export const labels: Record<Language, Labels> = { nl, en, de };

/** Money as printed: € 1.234,56 in Dutch and German, €1,234.56 in English. */
export function formatMoney(value: string, language: Language, currency = 'EUR'): string {
  const fixed = new Decimal(value).toFixed(2);
  const negative = fixed.startsWith('-');
  const [int, frac] = (negative ? fixed.slice(1) : fixed).split('.') as [string, string];
  const sep = language === 'en' ? [',', '.'] : ['.', ','];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, sep[0]!);
  const symbol = currency === 'EUR' ? '€' : currency;
  const body = `${grouped}${sep[1]}${frac}`;
  const spaced = language === 'en' ? `${symbol}${body}` : `${symbol} ${body}`;
  return negative ? `- ${spaced}` : spaced;
}

/** Unit prices keep up to 4 decimals (print prices are often fractions of a cent), at least 2. */
export function formatUnitPrice(value: string, language: Language, currency = 'EUR'): string {
  const d = new Decimal(value);
  const places = Math.max(2, Math.min(4, d.decimalPlaces()));
  const [money] = [formatMoney(d.toFixed(2), language, currency)];
  if (places === 2) return money;
  const fixed = d.toFixed(places);
  const frac = fixed.split('.')[1]!;
  return money.replace(/[.,]\d{2}$/, (m) => `${m[0]}${frac}`);
}

export function formatDate(iso: string, language: Language): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  if (language === 'de') return `${d}.${m}.${y}`;
  if (language === 'en') return `${d}/${m}/${y}`;
  return `${d}-${m}-${y}`;
}

export function formatRate(rate: string, language: Language): string {
  const s = new Decimal(rate).toString();
  return language === 'en' ? s : s.replace('.', ',');
}
