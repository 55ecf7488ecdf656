import { unprocessable } from '@aplt/http';
import type { PrintableDocument } from './document.model';
import { formatDate, formatMoney } from './templates/labels';

export type DraftKind = 'quotation' | 'order' | 'invoice' | 'credit_note';

/** File names the spec prescribes per document type. */
export const EML_PREFIX: Record<DraftKind, string> = {
  quotation: 'offerte',
  order: 'orderbevestiging',
  invoice: 'factuur',
  credit_note: 'creditnota',
};
const SUBJECT_WORD: Record<DraftKind, string> = {
  quotation: 'Offerte',
  order: 'Orderbevestiging',
  invoice: 'Factuur',
  credit_note: 'Creditnota',
};

export const emlFileName = (kind: DraftKind, number: string) => `${EML_PREFIX[kind]}-${number}.eml`;
export const pdfFileName = (kind: DraftKind, number: string) => `${EML_PREFIX[kind]}-${number}.pdf`;

/**
 * An unsent e-mail (X-Unsent: 1 makes Outlook, Thunderbird and Apple Mail open it as a draft)
 * addressed to the customer, from the company of the document's brand, with the standard Dutch
 * text and the PDF attached. The person sending it can still edit everything before sending.
 */
export async function buildEmlDraft(kind: DraftKind, doc: PrintableDocument, pdf: Buffer): Promise<string> {
  const { to, from } = draftAddresses(doc);
  // Loaded with the first draft: the MIME library is about 3 MB of resident memory from start-up on.
  const { createMimeMessage } = await import('mimetext');
  const msg = createMimeMessage();
  msg.setSender({ name: doc.company.name || from, addr: from });
  msg.setTo(doc.customer.name ? { name: doc.customer.name, addr: to } : to);
  msg.setSubject(`${SUBJECT_WORD[kind]} ${doc.number}${doc.company.name ? ` - ${doc.company.name}` : ''}`);
  msg.setHeader('X-Unsent', '1');
  msg.addMessage({
    contentType: 'text/plain',
    charset: 'UTF-8',
    encoding: 'base64',
    // Text in canonical form (CRLF line ends, RFC 2046) before it is base64-encoded.
    data: wrapBase64(Buffer.from(dutchBody(kind, doc).replace(/\n/g, '\r\n'), 'utf8')),
  });
  msg.addAttachment({
    filename: pdfFileName(kind, doc.number),
    contentType: 'application/pdf',
    encoding: 'base64',
    data: wrapBase64(pdf),
  });
  // mimetext joins lines with the OS newline; Internet mail wants CRLF (RFC 5322).
  return `${msg.asRaw().replace(/\r?\n/g, '\r\n')}\r\n`;
}

/** The draft's To and From, or a clear 422 naming what is missing. */
export function draftAddresses(doc: PrintableDocument): { to: string; from: string } {
  const to = doc.customer.email;
  if (!to) {
    throw unprocessable(`customer of ${doc.number} has no e-mail address; add one before creating a draft`, {
      field: 'customer.email',
    });
  }
  const from = doc.company.email;
  if (!from) {
    throw unprocessable('company e-mail is missing in aplt_cms_settings (key email) for this brand', {
      field: 'company.email',
    });
  }
  return { to, from };
}

/** Base64 in lines of 76 characters, as MIME requires (RFC 2045). */
function wrapBase64(data: Buffer): string {
  return (data.toString('base64').match(/.{1,76}/g) ?? []).join('\n');
}

function dutchBody(kind: DraftKind, doc: PrintableDocument): string {
  const greeting = doc.customer.name ? `Beste ${doc.customer.name},` : 'Geachte heer/mevrouw,';
  const total = formatMoney(doc.totals.total, 'nl', doc.currency);
  const date = formatDate(doc.date, 'nl');
  let text: string;
  switch (kind) {
    case 'quotation':
      text =
        `Hartelijk dank voor uw aanvraag. In de bijlage vindt u onze offerte ${doc.number} van ${date}` +
        (doc.validUntil ? `, geldig tot en met ${formatDate(doc.validUntil, 'nl')}` : '') +
        '.\n\nWilt u de offerte aanvaarden of heeft u vragen? Beantwoord dan deze e-mail of neem telefonisch contact met ons op.';
      break;
    case 'order':
      text =
        `Hartelijk dank voor uw bestelling. In de bijlage vindt u de orderbevestiging ${doc.number} van ${date}.\n\n` +
        'Wilt u de gegevens controleren? Klopt er iets niet, laat het ons dan zo snel mogelijk weten.';
      break;
    case 'invoice':
      text =
        `In de bijlage vindt u factuur ${doc.number} van ${date} voor een bedrag van ${total}.\n\n` +
        `Wij verzoeken u dit bedrag${doc.dueDate ? ` uiterlijk ${formatDate(doc.dueDate, 'nl')}` : ''} over te maken` +
        (doc.company.iban ? ` op rekening ${doc.company.iban}` : '') +
        ` onder vermelding van het factuurnummer ${doc.number}.`;
      break;
    case 'credit_note':
      text =
        `In de bijlage vindt u creditnota ${doc.number} van ${date} voor een bedrag van ${total}` +
        (doc.credited ? `, bij factuur ${doc.credited.number}` : '') +
        '.\n\nHet bedrag verrekenen wij met uw openstaande facturen of betalen wij aan u terug.' +
        ' Heeft u vragen? Beantwoord dan deze e-mail.';
      break;
  }
  const signature = [doc.company.name, doc.company.phone, doc.company.email, doc.company.website].filter(
    Boolean,
  );
  return `${greeting}\n\n${text}\n\nMet vriendelijke groet,\n\n${signature.join('\n')}\n`;
}
