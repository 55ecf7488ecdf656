import { creditNoteBody } from '@aplt/service-documents/schemas/invoices';
import { ReceiptPercent } from '@medusajs/icons';
import {
  Button,
  Checkbox,
  Drawer,
  Input,
  Label,
  RadioGroup,
  Table,
  Text,
  Textarea,
  toast,
} from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { useCreateCreditNote } from '../../hooks/api/credit-notes';
import type { Invoice } from '../../hooks/api/invoices';
import { useFormat } from '../../hooks/use-format';

/**
 * A credit note of this invoice: in full, or chosen quantities of chosen lines (at most what is
 * not credited yet). A reason is required, as the API demands; the credit note opens.
 */
export function CreditNoteDrawer({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const create = useCreateCreditNote();
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'full' | 'lines'>('lines');
  const [reason, setReason] = useState('');
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<string[]>([]);
  const creditable = invoice.lines.filter((l) => l.quantity > l.credited_quantity);

  const submit = () => {
    const lines = Object.entries(chosen)
      .filter(([, q]) => q.trim() !== '')
      .map(([id, q]) => ({ invoice_line_id: Number(id), quantity: Number(q) }));
    const body = {
      invoice_id: invoice.id,
      reason,
      ...(mode === 'lines' ? { lines } : {}),
    };
    const found: string[] = [];
    const parsed = creditNoteBody.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        found.push(
          issue.path[0] === 'reason'
            ? t('creditNotes.create.reasonRequired')
            : issue.path[0] === 'lines' && lines.length === 0
              ? t('creditNotes.create.chooseLines')
              : `${issue.path.join('.')}: ${issue.message}`,
        );
    for (const l of lines) {
      const line = invoice.lines.find((x) => x.id === l.invoice_line_id)!;
      if (l.quantity > line.quantity - line.credited_quantity)
        found.push(
          t('creditNotes.create.tooMany', {
            line: line.description ?? line.sku ?? String(line.id),
            max: f.number(line.quantity - line.credited_quantity),
          }),
        );
    }
    setProblems([...new Set(found)]);
    if (found.length) return;
    // mutateAsync: the refetch after success may unmount the drawer; failures show from create.error.
    void create.mutateAsync(parsed.data!).then(
      (cn) => {
        setOpen(false);
        toast.success(t('creditNotes.create.done', { number: cn.invoice_number }));
        void navigate(`/credit-notes/${cn.id}`);
      },
      () => {},
    );
  };

  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" variant="secondary" data-testid="invoice-credit" disabled={!creditable.length}>
          <ReceiptPercent />
          {t('creditNotes.create.button')}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content className="max-w-2xl" data-testid="credit-note-drawer">
        <Drawer.Header>
          <Drawer.Title>{t('creditNotes.create.title', { number: invoice.invoice_number })}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <RadioGroup
            value={mode}
            onValueChange={(v) => setMode(v as 'full' | 'lines')}
            className="flex flex-col gap-y-2"
          >
            <div className="flex items-center gap-x-2">
              <RadioGroup.Item value="lines" id="credit-lines" />
              <Label htmlFor="credit-lines" size="small">
                {t('creditNotes.create.partial')}
              </Label>
            </div>
            <div className="flex items-center gap-x-2">
              <RadioGroup.Item value="full" id="credit-full" data-testid="credit-mode-full" />
              <Label htmlFor="credit-full" size="small">
                {t('creditNotes.create.full')}
              </Label>
            </div>
          </RadioGroup>
          {mode === 'lines' && (
            <Table data-testid="credit-lines">
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell />
                  <Table.HeaderCell>{t('sales.lines.description')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">
                    {t('creditNotes.create.creditable')}
                  </Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('sales.lines.amount')}</Table.HeaderCell>
                  <Table.HeaderCell className="w-28 text-right">{t('sales.lines.quantity')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {creditable.map((l) => {
                  const left = l.quantity - l.credited_quantity;
                  const checked = chosen[l.id] !== undefined;
                  return (
                    <Table.Row key={l.id} data-invoice-line={l.id}>
                      <Table.Cell>
                        <Checkbox
                          checked={checked}
                          aria-label={l.description ?? l.sku ?? String(l.id)}
                          data-testid={`credit-line-${l.line_no}`}
                          onCheckedChange={(c) =>
                            setChosen((prev) => {
                              const next = { ...prev };
                              if (c) next[l.id] = String(left);
                              else delete next[l.id];
                              return next;
                            })
                          }
                        />
                      </Table.Cell>
                      <Table.Cell className="whitespace-normal">
                        {l.description ||
                          l.sku ||
                          t(`sales.lineType.${l.line_type}` as 'sales.lineType.product')}
                      </Table.Cell>
                      <Table.Cell className="text-right">{f.number(left)}</Table.Cell>
                      <Table.Cell className="text-right">{f.money(l.line_total)}</Table.Cell>
                      <Table.Cell className="text-right">
                        <Input
                          size="small"
                          inputMode="numeric"
                          disabled={!checked}
                          aria-label={t('sales.lines.quantity')}
                          value={chosen[l.id] ?? ''}
                          onChange={(e) => setChosen((prev) => ({ ...prev, [l.id]: e.target.value }))}
                        />
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table>
          )}
          <div className="flex flex-col gap-y-2">
            <Label htmlFor="credit-reason" size="small" weight="plus">
              {t('creditNotes.fields.reason')}
            </Label>
            <Textarea
              id="credit-reason"
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              data-testid="credit-reason"
            />
          </div>
          {problems.length > 0 && (
            <div role="alert" className="flex flex-col gap-y-1" data-testid="credit-problems">
              {problems.map((p) => (
                <Text key={p} size="small" className="text-ui-fg-error">
                  {p}
                </Text>
              ))}
            </div>
          )}
          <ErrorAlert error={create.error} />
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              {t('general.cancel')}
            </Button>
          </Drawer.Close>
          <Button size="small" onClick={submit} isLoading={create.isPending} data-testid="credit-submit">
            {t('creditNotes.create.submit')}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  );
}
