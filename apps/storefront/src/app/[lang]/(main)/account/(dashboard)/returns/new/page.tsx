import type { Metadata } from 'next';
import Link from 'next/link';
import { getInvoice, listInvoices } from '@lib/data/invoices';
import { MAX_PHOTO_BYTES, MAX_RETURN_PHOTOS, returnReasons } from '@lib/data/returns';
import { fileReturnAction } from '@modules/account/actions';
import { ActionForm } from '@modules/account/components/action-form';
import { ImageFileInput } from '@modules/account/components/file-input';
import { formatDate, load, pageLang, requireFeature } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Return' };

/**
 * Filing a return in two steps: choose the invoice (a GET form), then its product lines with a
 * quantity and a reason each (spec 1's list, free text for "other"), up to 3 photos and a remark.
 */
export default async function NewReturnPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ invoice?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('invoices');
  const tx = at(lang);
  const base = `/${lang}/account/returns`;
  const raw = (await searchParams).invoice;
  const invoiceId = raw && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : undefined;
  const back = (
    <Link href={base} className="back">
      ← {tx.returns}
    </Link>
  );

  if (!invoiceId) {
    // Invoices only (credit notes are no goods); the newest 20 cover what is still returnable.
    const list = await load(lang, () => listInvoices(1));
    const invoices = list.data?.data.filter((i) => i.document_type !== 'credit_note') ?? [];
    return (
      <>
        {back}
        <h1>{tx.fileReturn}</h1>
        {list.error !== undefined ? (
          <p className="error" role="alert">
            {list.error}
          </p>
        ) : invoices.length === 0 ? (
          <p className="muted">{tx.noReturnableInvoices}</p>
        ) : (
          <form method="get" action={`${base}/new`} className="account-form" data-testid="choose-invoice">
            <label className="field">
              <span>{tx.chooseInvoice}</span>
              <select name="invoice" required>
                {invoices.map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.invoice_number} · {formatDate(lang, i.issue_date)}
                  </option>
                ))}
              </select>
              <small className="muted">{tx.chooseInvoiceHint}</small>
            </label>
            <button type="submit">{tx.next}</button>
          </form>
        )}
      </>
    );
  }

  const inv = await load(lang, () => getInvoice(invoiceId), 'document');
  if (inv.error !== undefined)
    return (
      <>
        {back}
        <h1>{tx.fileReturn}</h1>
        <p className="error" role="alert">
          {inv.error}
        </p>
      </>
    );
  const lines = inv.data.lines.filter((l) => l.line_type === 'product');
  return (
    <>
      {back}
      <h1>
        {tx.fileReturn} · {inv.data.invoice_number}
      </h1>
      <ActionForm action={fileReturnAction} lang={lang} submitLabel={tx.submitReturn} testId="return-form">
        <input type="hidden" name="invoice_id" value={inv.data.id} />
        <table className="doc-table return-lines">
          <thead>
            <tr>
              <th>{tx.description}</th>
              <th className="num">{tx.invoiced}</th>
              <th>{tx.returnQty}</th>
              <th>{tx.reason}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.id} data-line={l.id}>
                <td>
                  {l.description ?? l.sku}
                  {l.sku && l.description ? <div className="muted small">{l.sku}</div> : null}
                </td>
                <td className="num">{String(l.quantity)}</td>
                <td>
                  <input
                    type="number"
                    name={`qty_${l.id}`}
                    min={0}
                    max={Number(l.quantity) || undefined}
                    step={1}
                    defaultValue={0}
                    className="qty"
                    aria-label={`${tx.returnQty} ${l.sku ?? ''}`}
                  />
                </td>
                <td>
                  <select name={`reason_${l.id}`} defaultValue="damaged" aria-label={tx.reason}>
                    {returnReasons.map((r) => (
                      <option key={r} value={r}>
                        {label(tx.returnReason, r)}
                      </option>
                    ))}
                  </select>
                  <input
                    name={`reason_text_${l.id}`}
                    maxLength={1000}
                    placeholder={`${tx.otherText} (${label(tx.returnReason, 'other')})`}
                    aria-label={tx.otherText}
                    className="reason-text"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ImageFileInput
          name="photos"
          multiple
          maxFiles={MAX_RETURN_PHOTOS}
          maxBytes={MAX_PHOTO_BYTES}
          label={tx.photos}
          messages={{
            tooMany: tx.tooManyPhotos,
            tooLarge: tx.photoTooLarge('{name}'),
            type: tx.photoType('{name}'),
          }}
        />
        <label className="field">
          <span>{tx.remark}</span>
          <textarea name="remark" maxLength={2000} rows={3} />
        </label>
      </ActionForm>
    </>
  );
}
