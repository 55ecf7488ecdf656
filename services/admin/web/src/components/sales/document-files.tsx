import { ArrowDownTray, DocumentText, EyeMini, EyeSlash } from '@medusajs/icons';
import { Button, Skeleton, Text } from '@medusajs/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/error-alert';
import { downloadFile, fileUrl } from '../../lib/download';
import { sdk } from '../../lib/sdk';

/** The documents service's file routes per kind (PDF always; `.eml` and UBL where they exist). */
export type FileKind = 'quotations' | 'orders' | 'invoices' | 'credit-notes';

/**
 * The PDF of a document inside the page: fetched with the person's token, shown in an iframe
 * from an object URL (revoked when the preview goes). The blob is fetched once per document.
 */
export function PdfPreview({ kind, id, name }: { kind: FileKind; id: number; name: string }) {
  const { t } = useTranslation();
  const pdf = useQuery({
    queryKey: ['admin', kind, 'pdf', id],
    queryFn: () => fileUrl(`/admin/aplt/${kind}/pdf?id=${id}`, 'application/pdf'),
    staleTime: Infinity,
    gcTime: 0,
  });
  const url = pdf.data;
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  // Asked for, so brought into view (it opens at the bottom of the page).
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    if (url) frame.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [url]);
  if (pdf.error) return <ErrorAlert error={pdf.error} onRetry={() => void pdf.refetch()} className="m-4" />;
  if (!url)
    return (
      <div className="flex flex-col gap-y-2 p-4" data-testid="pdf-loading">
        <Text size="small" className="text-ui-fg-muted">
          {t('sales.files.rendering')}
        </Text>
        <Skeleton className="h-[480px] w-full" />
      </div>
    );
  return (
    <iframe
      ref={frame}
      title={t('sales.files.previewTitle', { name })}
      src={url}
      className="bg-ui-bg-subtle h-[720px] w-full rounded-b-lg border-0"
      data-testid="pdf-preview"
    />
  );
}

/** POSTs `{id}` and saves the answer (the `.eml` routes take the id in a JSON body). */
async function downloadPosted(path: string, body: Record<string, unknown>, filename: string) {
  const res = await sdk.client.fetch<Response>(path, {
    method: 'POST',
    body,
    headers: { accept: 'message/rfc822' },
  });
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const draftPrefix: Partial<Record<FileKind, string>> = {
  quotations: 'offerte',
  orders: 'orderbevestiging',
  invoices: 'factuur',
};
const pdfPrefix: Record<FileKind, string> = {
  quotations: 'offerte',
  orders: 'orderbevestiging',
  invoices: 'factuur',
  'credit-notes': 'creditnota',
};

/**
 * The file buttons of a document page: show or hide the PDF preview, download the PDF, the
 * e-mail draft (`.eml`) and the UBL e-invoice where the kind has them. A failed download shows
 * the API's message right under the buttons.
 */
export function DocumentFiles({
  kind,
  id,
  number,
  ubl = false,
  eml = kind !== 'credit-notes',
  preview,
  onTogglePreview,
}: {
  kind: FileKind;
  id: number;
  number: string;
  ubl?: boolean;
  eml?: boolean;
  preview: boolean;
  onTogglePreview: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = (what: string, action: () => Promise<void>) => async () => {
    setBusy(what);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-col gap-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button size="small" variant="secondary" onClick={onTogglePreview} data-testid="toggle-pdf-preview">
          {preview ? <EyeSlash /> : <EyeMini />}
          {preview ? t('sales.files.hidePreview') : t('sales.files.preview')}
        </Button>
        <Button
          size="small"
          variant="secondary"
          isLoading={busy === 'pdf'}
          onClick={run('pdf', () =>
            downloadFile(
              `/admin/aplt/${kind}/pdf?id=${id}`,
              `${pdfPrefix[kind]}-${number}.pdf`,
              'application/pdf',
            ),
          )}
          data-testid="download-pdf"
        >
          <ArrowDownTray />
          PDF
        </Button>
        {eml && draftPrefix[kind] && (
          <Button
            size="small"
            variant="secondary"
            isLoading={busy === 'eml'}
            onClick={run('eml', () =>
              downloadPosted(`/admin/aplt/${kind}/eml`, { id }, `${draftPrefix[kind]}-${number}.eml`),
            )}
            data-testid="download-eml"
          >
            <DocumentText />
            {t('sales.files.eml')}
          </Button>
        )}
        {ubl && (
          <Button
            size="small"
            variant="secondary"
            isLoading={busy === 'ubl'}
            onClick={run('ubl', () =>
              downloadFile(
                `/admin/aplt/${kind}/ubl?id=${id}`,
                `${kind === 'invoices' ? 'factuur' : 'creditnota'}-${number}.xml`,
                'application/xml',
              ),
            )}
            data-testid="download-ubl"
          >
            <ArrowDownTray />
            UBL
          </Button>
        )}
      </div>
      <ErrorAlert error={error} />
    </div>
  );
}
