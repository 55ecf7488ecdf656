import type { Metadata } from 'next';
import Link from 'next/link';
import { PAGE_SIZE } from '@lib/data/documents';
import { listReturns } from '@lib/data/returns';
import { Pager } from '@modules/account/components/pager';
import { StatusBadge } from '@modules/account/components/status-badge';
import { formatDate, load, pageLang, pageNumber, requireFeature } from '@modules/account/page-helpers';
import { at, label } from '@modules/account/texts';

export const metadata: Metadata = { title: 'Returns' };

/** Filed returns with their lines, reasons and photos; returns belong to the invoices feature. */
export default async function ReturnsPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<{ page?: string; filed?: string }>;
}) {
  const lang = await pageLang(params);
  await requireFeature('invoices');
  const tx = at(lang);
  const sp = await searchParams;
  const page = pageNumber(sp.page);
  const returns = await load(lang, () => listReturns(page));
  const base = `/${lang}/account/returns`;
  return (
    <>
      <div className="title-row">
        <h1>{tx.returns}</h1>
        <Link href={`${base}/new`} className="button" data-testid="new-return">
          {tx.fileReturn}
        </Link>
      </div>
      {/* Only a return number is echoed: a crafted link cannot put other words in the page. */}
      {sp.filed && /^[A-Z]{1,4}-\d{4}-\d{1,8}$/.test(sp.filed) && (
        <p className="notice" role="status" data-testid="return-filed">
          {tx.returnFiled(sp.filed)}
        </p>
      )}
      <h2>{tx.filedReturns}</h2>
      {returns.error !== undefined ? (
        <p className="error" role="alert">
          {returns.error}
        </p>
      ) : returns.data.data.length === 0 ? (
        <p className="muted">{tx.none}</p>
      ) : (
        <>
          <ul className="return-list" data-testid="return-list">
            {returns.data.data.map((r) => (
              <li key={r.id} className="return-card" data-return={r.return_number}>
                <div className="return-head">
                  <strong>{r.return_number}</strong>
                  <StatusBadge status={r.status} label={label(tx.returnStatus, r.status)} />
                  <span className="muted">
                    {formatDate(lang, r.created_at)}
                    {r.invoice_number ? ` · ${r.invoice_number}` : ''}
                  </span>
                </div>
                <table className="doc-table compact">
                  <tbody>
                    {r.lines.map((l) => (
                      <tr key={l.id}>
                        <td>
                          {l.description ?? l.sku}
                          {l.sku && l.description ? <span className="muted"> · {l.sku}</span> : null}
                        </td>
                        <td className="num">{l.quantity}×</td>
                        <td>
                          {label(tx.returnReason, l.reason)}
                          {l.reason_text ? <span className="muted">: {l.reason_text}</span> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {r.remark && <p className="muted">“{r.remark}”</p>}
                {r.photos.length > 0 && (
                  <div className="photos">
                    {r.photos.map((p) => (
                      <a key={p.id} href={`${base}/${r.id}/photos/${p.id}`} target="_blank" rel="noopener">
                        <img
                          src={`${base}/${r.id}/photos/${p.id}`}
                          alt={`${r.return_number} ${p.slot}`}
                          loading="lazy"
                        />
                      </a>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
          <Pager
            page={page}
            count={returns.data.count}
            size={PAGE_SIZE}
            href={(p) => `${base}?page=${p}`}
            texts={tx}
          />
        </>
      )}
    </>
  );
}
