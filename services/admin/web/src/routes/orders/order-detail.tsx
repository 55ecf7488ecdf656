import { createInvoiceBody } from '@aplt/service-documents/schemas/invoices';
import { trackingUrl, updateOrderBody } from '@aplt/service-documents/schemas/orders';
import { Receipt } from '@medusajs/icons';
import { Button, Checkbox, Drawer, Input, Label, Prompt, RadioGroup, Table, Text, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Form, TextField, useZodForm } from '../../components/forms/form';
import { Page, PageSection } from '../../components/layout/page';
import { customerLabel, Fields, LinesTable, Totals } from '../../components/sales/detail';
import { DocumentChain } from '../../components/sales/document-chain';
import { DocumentFiles, PdfPreview } from '../../components/sales/document-files';
import { DocumentStatus } from '../../components/sales/status-badge';
import {
  type Order,
  type OrderStatus,
  useChangeOrderStatus,
  useInvoiceOrder,
  useOrder,
  useUpdateOrder,
} from '../../hooks/api/orders';
import { useFormat } from '../../hooks/use-format';
import { PartnerSection } from './partner-section';

/** /app/orders/:id: the order, the moves its state allows, delivery and tracking, invoicing. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const order = useOrder(id);
  const [preview, setPreview] = useState(false);
  if (order.error) return <ErrorAlert error={order.error} onRetry={() => void order.refetch()} />;
  if (!order.data) return <SectionSpinner />;
  const o = order.data;
  const invoiceable = o.status !== 'cancelled' && o.lines.some((l) => l.quantity > l.invoiced_quantity);

  return (
    <Page
      title={o.order_number}
      description={o.reference ?? undefined}
      testId="order-detail"
      actions={
        <>
          <DocumentStatus kind="order" status={o.status} />
          {invoiceable && <InvoiceOrder order={o} />}
        </>
      }
      sections={
        <>
          <PageSection title={t('orders.statusSection')} actions={<StatusMoves order={o} />}>
            <DeliveryForm order={o} />
          </PageSection>
          <PartnerSection orderId={o.id} />
          <PageSection title={t('sales.sections.lines')}>
            <LinesTable
              lines={o.lines}
              testId="order-lines"
              extraColumns={[
                {
                  id: 'invoiced',
                  header: t('orders.fields.invoiced'),
                  cell: (l) => `${f.number(l.invoiced_quantity)} / ${f.number(l.quantity)}`,
                },
              ]}
            />
            <Totals
              rows={[
                { label: t('sales.totals.subtotal'), value: f.money(o.subtotal) },
                Number(o.setup_cost_total) > 0 && {
                  label: t('sales.totals.setup'),
                  value: f.money(o.setup_cost_total),
                },
                Number(o.discount_total) > 0 && {
                  label: t('sales.totals.discount'),
                  value: `− ${f.money(o.discount_total)}`,
                },
                { label: t('sales.totals.shipping'), value: f.money(o.shipping_cost) },
                { label: t('sales.totals.vat'), value: f.money(o.vat_total) },
                { label: t('sales.totals.total'), value: f.money(o.total), strong: true },
              ]}
            />
          </PageSection>
          <PageSection
            title={t('sales.sections.files')}
            actions={
              <DocumentFiles
                kind="orders"
                id={o.id}
                number={o.order_number}
                preview={preview}
                onTogglePreview={() => setPreview((p) => !p)}
              />
            }
          >
            {preview && <PdfPreview kind="orders" id={o.id} name={o.order_number} />}
          </PageSection>
          <PageSection title={t('sales.chain.title')}>
            <DocumentChain type="order" id={o.id} />
          </PageSection>
        </>
      }
    >
      <Fields
        items={[
          {
            label: t('sales.fields.customer'),
            value: o.customer_id ? (
              <Link className="text-ui-fg-interactive hover:underline" to={`/customers/${o.customer_id}`}>
                {customerLabel(o)}
              </Link>
            ) : (
              customerLabel(o)
            ),
          },
          { label: t('sales.fields.date'), value: f.date(o.order_date) },
          { label: t('orders.fields.expectedDelivery'), value: f.date(o.expected_delivery_date) },
          {
            label: t('orders.fields.trackingUrl'),
            value: o.tracking_url ? (
              <a
                className="text-ui-fg-interactive break-all hover:underline"
                href={o.tracking_url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="order-tracking-link"
              >
                {o.tracking_url}
              </a>
            ) : null,
          },
          {
            label: t('orders.fields.quotation'),
            value: o.quotation_id ? (
              <Link className="text-ui-fg-interactive hover:underline" to={`/quotations/${o.quotation_id}`}>
                {t('orders.openQuotation')}
              </Link>
            ) : null,
          },
          { label: t('sales.fields.email'), value: o.customer_email },
        ]}
      />
    </Page>
  );
}

/** One button per move the state machine allows now; shipping asks for tracking, cancelling for a yes. */
function StatusMoves({ order }: { order: Order }) {
  const { t } = useTranslation();
  const change = useChangeOrderStatus(order.id);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [shipping, setShipping] = useState(false);
  const move = (
    status: OrderStatus,
    extra: { tracking_url?: string; expected_delivery_date?: string } = {},
  ) =>
    change.mutate(
      { status, ...extra },
      {
        onSuccess: () => {
          setShipping(false);
          setConfirmCancel(false);
          toast.success(t('orders.moved', { status: t(`sales.status.order.${status}`) }));
        },
      },
    );
  if (!order.allowed_transitions.length)
    return (
      <Text size="small" className="text-ui-fg-muted" data-testid="order-final">
        {t('orders.final')}
      </Text>
    );
  return (
    <div className="flex flex-col items-end gap-y-2">
      <div className="flex flex-wrap gap-2" data-testid="order-moves">
        {order.allowed_transitions.map((status) => (
          <Button
            key={status}
            size="small"
            variant={status === 'cancelled' ? 'danger' : 'secondary'}
            isLoading={change.isPending && change.variables?.status === status}
            data-move={status}
            onClick={() =>
              status === 'cancelled'
                ? setConfirmCancel(true)
                : status === 'shipped'
                  ? setShipping(true)
                  : move(status)
            }
          >
            {t(`orders.moveTo.${status}` as 'orders.moveTo.confirmed')}
          </Button>
        ))}
      </div>
      <ErrorAlert error={change.error} />
      <Prompt open={confirmCancel} onOpenChange={setConfirmCancel}>
        <Prompt.Content>
          <Prompt.Header>
            <Prompt.Title>{t('orders.cancelTitle', { number: order.order_number })}</Prompt.Title>
            <Prompt.Description>{t('orders.cancelDescription')}</Prompt.Description>
          </Prompt.Header>
          <Prompt.Footer>
            <Prompt.Cancel>{t('general.cancel')}</Prompt.Cancel>
            <Prompt.Action onClick={() => move('cancelled')}>{t('orders.moveTo.cancelled')}</Prompt.Action>
          </Prompt.Footer>
        </Prompt.Content>
      </Prompt>
      <ShipDrawer
        order={order}
        open={shipping}
        onOpenChange={setShipping}
        onShip={(extra) => move('shipped', extra)}
        isPending={change.isPending}
        error={change.error}
      />
    </div>
  );
}

const shipForm = z.object({
  tracking_url: z.union([z.literal(''), trackingUrl]),
  expected_delivery_date: z.union([
    z.literal(''),
    updateOrderBody.shape.expected_delivery_date.unwrap().unwrap(),
  ]),
});
type ShipValues = z.infer<typeof shipForm>;

function ShipDrawer({
  order,
  open,
  onOpenChange,
  onShip,
  isPending,
  error,
}: {
  order: Order;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onShip: (extra: { tracking_url?: string; expected_delivery_date?: string }) => void;
  isPending: boolean;
  error: unknown;
}) {
  const { t } = useTranslation();
  const form = useZodForm(shipForm, {
    tracking_url: order.tracking_url ?? '',
    expected_delivery_date: order.expected_delivery_date ?? '',
  });
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content>
        <Form
          form={form}
          className="flex h-full flex-col"
          onSubmit={(v) =>
            onShip({
              ...(v.tracking_url ? { tracking_url: v.tracking_url } : {}),
              ...(v.expected_delivery_date ? { expected_delivery_date: v.expected_delivery_date } : {}),
            })
          }
        >
          <Drawer.Header>
            <Drawer.Title>{t('orders.shipTitle', { number: order.order_number })}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-col gap-y-4">
            <TextField<ShipValues>
              name="tracking_url"
              label={t('orders.fields.trackingUrl')}
              placeholder="https://"
            />
            <TextField<ShipValues>
              name="expected_delivery_date"
              label={t('orders.fields.expectedDelivery')}
              type="date"
            />
            <ErrorAlert error={error} />
          </Drawer.Body>
          <Drawer.Footer>
            <Drawer.Close asChild>
              <Button size="small" variant="secondary" type="button">
                {t('general.cancel')}
              </Button>
            </Drawer.Close>
            <Button size="small" type="submit" isLoading={isPending} data-testid="order-ship-go">
              {t('orders.moveTo.shipped')}
            </Button>
          </Drawer.Footer>
        </Form>
      </Drawer.Content>
    </Drawer>
  );
}

/** Expected delivery date and tracking link (PUT), checked with the API's rules. */
function DeliveryForm({ order }: { order: Order }) {
  const { t } = useTranslation();
  const update = useUpdateOrder(order.id);
  const form = useZodForm(shipForm, {
    tracking_url: order.tracking_url ?? '',
    expected_delivery_date: order.expected_delivery_date ?? '',
  });
  return (
    <Form
      form={form}
      testId="order-delivery-form"
      className="grid grid-cols-1 items-start gap-4 px-6 py-4 md:grid-cols-[1fr_200px_auto]"
      onSubmit={(v) =>
        update.mutate(
          {
            tracking_url: v.tracking_url || null,
            expected_delivery_date: v.expected_delivery_date || null,
          },
          { onSuccess: () => toast.success(t('orders.deliverySaved')) },
        )
      }
    >
      <TextField<ShipValues>
        name="tracking_url"
        label={t('orders.fields.trackingUrl')}
        placeholder="https://"
        size="small"
      />
      <TextField<ShipValues>
        name="expected_delivery_date"
        label={t('orders.fields.expectedDelivery')}
        type="date"
        size="small"
      />
      <div className="flex flex-col gap-y-2 md:pt-6">
        <Button
          size="small"
          variant="secondary"
          type="submit"
          isLoading={update.isPending}
          data-testid="order-delivery-save"
        >
          {t('general.save')}
        </Button>
      </div>
      <div className="md:col-span-3">
        <ErrorAlert error={update.error} />
      </div>
    </Form>
  );
}

/** Invoice the whole order, or chosen quantities of its lines; the invoice opens. */
function InvoiceOrder({ order }: { order: Order }) {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const invoice = useInvoiceOrder(order.id);
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'all' | 'lines'>('all');
  const remaining = order.lines.filter((l) => l.quantity > l.invoiced_quantity);
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    setProblem(null);
    if (mode === 'all') {
      void invoice.mutateAsync({}).then(done, () => {});
      return;
    }
    const lines = Object.entries(chosen)
      .filter(([, q]) => q !== '')
      .map(([lineId, q]) => ({ order_line_id: Number(lineId), quantity: Number(q) }));
    const parsed = createInvoiceBody.safeParse({ order_id: order.id, order_lines: lines });
    if (!parsed.success) {
      setProblem(lines.length ? parsed.error.issues[0]!.message : t('orders.invoice.chooseLines'));
      return;
    }
    const over = lines.find((l) => {
      const line = order.lines.find((x) => x.id === l.order_line_id)!;
      return l.quantity > line.quantity - line.invoiced_quantity;
    });
    if (over) {
      setProblem(t('orders.invoice.tooMany'));
      return;
    }
    // mutateAsync: the refetch after success may unmount this drawer (nothing left to invoice),
    // which would drop mutate()'s callbacks. Failures show from invoice.error.
    void invoice.mutateAsync({ order_lines: lines }).then(done, () => {});
  };
  const done = (inv: { id: number; invoice_number: string }) => {
    setOpen(false);
    toast.success(t('orders.invoice.created', { number: inv.invoice_number }));
    void navigate(`/invoices/${inv.id}`);
  };

  return (
    <Drawer open={open} onOpenChange={setOpen}>
      <Drawer.Trigger asChild>
        <Button size="small" data-testid="order-invoice">
          <Receipt />
          {t('orders.invoice.button')}
        </Button>
      </Drawer.Trigger>
      <Drawer.Content className="max-w-2xl">
        <Drawer.Header>
          <Drawer.Title>{t('orders.invoice.title', { number: order.order_number })}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <RadioGroup
            value={mode}
            onValueChange={(v) => setMode(v as 'all' | 'lines')}
            className="flex flex-col gap-y-2"
          >
            <div className="flex items-center gap-x-2">
              <RadioGroup.Item value="all" id="invoice-all" />
              <Label htmlFor="invoice-all" size="small">
                {t('orders.invoice.all')}
              </Label>
            </div>
            <div className="flex items-center gap-x-2">
              <RadioGroup.Item value="lines" id="invoice-lines" data-testid="invoice-mode-lines" />
              <Label htmlFor="invoice-lines" size="small">
                {t('orders.invoice.lines')}
              </Label>
            </div>
          </RadioGroup>
          {mode === 'lines' && (
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell />
                  <Table.HeaderCell>{t('sales.lines.description')}</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">{t('orders.invoice.open')}</Table.HeaderCell>
                  <Table.HeaderCell className="w-28 text-right">{t('sales.lines.quantity')}</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {remaining.map((l) => {
                  const left = l.quantity - l.invoiced_quantity;
                  const checked = chosen[l.id] !== undefined;
                  return (
                    <Table.Row key={l.id} data-order-line={l.id}>
                      <Table.Cell>
                        <Checkbox
                          checked={checked}
                          aria-label={l.description ?? l.sku ?? String(l.id)}
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
          {problem && <ErrorAlert error={new Error(problem)} />}
          <ErrorAlert error={invoice.error} />
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary">
              {t('general.cancel')}
            </Button>
          </Drawer.Close>
          <Button size="small" onClick={submit} isLoading={invoice.isPending} data-testid="order-invoice-go">
            {t('orders.invoice.create')}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  );
}
