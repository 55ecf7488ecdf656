import { ArrowRightMini } from '@medusajs/icons';
import { clx, Skeleton, Text } from '@medusajs/ui';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ChainDocType, type ChainDocument, useDocumentChain } from '../../hooks/api/document-chain';
import { useFormat } from '../../hooks/use-format';
import { ErrorAlert } from '../common/error-alert';
import { documentPath } from './document-paths';
import { DocumentStatus, type StatusKind } from './status-badge';

/** The chain's stages, left to right (a proforma sits with the invoices). */
const stages: Array<{ key: string; types: ChainDocType[] }> = [
  { key: 'quotation', types: ['quotation'] },
  { key: 'order', types: ['order'] },
  { key: 'invoice', types: ['proforma', 'invoice'] },
  { key: 'credit_note', types: ['credit_note'] },
  { key: 'payment', types: ['payment'] },
];

const statusKind: Record<ChainDocType, StatusKind> = {
  quotation: 'quotation',
  order: 'order',
  invoice: 'invoice',
  proforma: 'invoice',
  credit_note: 'invoice',
  payment: 'payment',
};

/**
 * Every document linked to this one, as a timeline from quotation to payments: one column per
 * stage, each document a card that opens it, the document of this page marked. Documents of
 * features the tenant is not licensed for are left out by the API.
 */
export function DocumentChain({ type, id }: { type: ChainDocType; id: number }) {
  const { t } = useTranslation();
  const chain = useDocumentChain(type, id);
  if (chain.error)
    return <ErrorAlert error={chain.error} onRetry={() => void chain.refetch()} className="m-4" />;
  if (!chain.data)
    return (
      <div className="flex gap-x-4 px-6 py-4">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-16 w-44" />
        ))}
      </div>
    );
  const columns = stages
    .map((s) => ({ ...s, docs: chain.data.documents.filter((d) => s.types.includes(d.type)) }))
    .filter((c) => c.docs.length > 0);
  return (
    <div className="overflow-x-auto px-6 py-4" data-testid="document-chain">
      <ol className="flex min-w-max items-stretch gap-x-2" aria-label={t('sales.chain.title')}>
        {columns.map((column, i) => (
          <Fragment key={column.key}>
            {i > 0 && (
              <li aria-hidden className="text-ui-fg-muted flex items-center">
                <ArrowRightMini />
              </li>
            )}
            <li className="flex flex-col gap-y-2">
              <Text size="xsmall" weight="plus" className="text-ui-fg-muted uppercase tracking-wide">
                {t(`sales.docType.${column.key}` as 'sales.docType.order')}
              </Text>
              <ul className="flex flex-col gap-y-2">
                {column.docs.map((doc) => (
                  <li key={`${doc.type}:${doc.id}`}>
                    <ChainNode
                      doc={doc}
                      current={doc.type === chain.data.root.type && doc.id === chain.data.root.id}
                    />
                  </li>
                ))}
              </ul>
            </li>
          </Fragment>
        ))}
      </ol>
    </div>
  );
}

function ChainNode({ doc, current }: { doc: ChainDocument; current: boolean }) {
  const f = useFormat();
  const { t } = useTranslation();
  return (
    <Link
      to={documentPath(doc.type, doc.id)}
      aria-current={current ? 'page' : undefined}
      data-chain-node={doc.number}
      className={clx(
        'bg-ui-bg-component hover:bg-ui-bg-component-hover shadow-borders-base focus-visible:shadow-borders-focus flex w-48 flex-col gap-y-1 rounded-lg px-3 py-2 outline-none transition-colors',
        current && 'shadow-borders-interactive-with-active',
      )}
    >
      <div className="flex items-center justify-between gap-x-2">
        <Text size="small" weight="plus" leading="compact">
          {doc.number}
        </Text>
        {doc.type === 'proforma' && (
          <Text size="xsmall" className="text-ui-fg-muted">
            {t('sales.docType.proforma')}
          </Text>
        )}
      </div>
      <div className="flex items-center justify-between gap-x-2">
        <Text size="xsmall" className="text-ui-fg-subtle">
          {f.date(doc.date)}
        </Text>
        <Text size="xsmall" weight="plus">
          {f.money(doc.total)}
        </Text>
      </div>
      {doc.type !== 'credit_note' && (
        <div>
          <DocumentStatus kind={statusKind[doc.type]} status={doc.status} />
        </div>
      )}
    </Link>
  );
}
