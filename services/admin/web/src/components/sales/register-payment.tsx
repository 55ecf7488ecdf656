import { paymentBody } from '@aplt/service-documents/schemas/payments';
import { Button, Drawer, Input, Label, Select, Table, Text, toast } from '@medusajs/ui';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useInvoices } from '../../hooks/api/invoices';
import { paymentMethods, useRegisterPayment } from '../../hooks/api/payments';
import { useFormat } from '../../hooks/use-format';
import { ErrorAlert } from '../common/error-alert';
import { CustomerPicker, customerName } from './customer-picker';
import { formatDecimal, normaliseAmount, parseDecimal, sumDecimals } from './decimal';
import { DocumentStatus } from './status-badge';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Register a payment and spread it over the customer's outstanding invoices (the rest becomes
 * the customer's credit). Opened from an invoice (that invoice first, its balance proposed) or
 * from the payments list (choose the customer first). Checked with the API's schema and its
 * two rules (never more than the payment in all, never more than an invoice's balance) before
 * it is sent.
 */
export function RegisterPayment({
  customer,
  invoiceId,
  trigger,
}: {
  customer?: { id: number; name: string };
  invoiceId?: number;
  trigger: ReactNode;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const register = useRegisterPayment();
  const [open, setOpen] = useState(false);
  const [chosenCustomer, setChosenCustomer] = useState(customer ?? null);
  const [amount, setAmount] = useState('');
  const [date, setDate] = useState(today());
  const [method, setMethod] = useState<string>('bank_transfer');
  const [reference, setReference] = useState('');
  const [allocations, setAllocations] = useState<Record<number, string>>({});
  const [problems, setProblems] = useState<string[]>([]);

  const customerId = chosenCustomer?.id;
  const invoices = useInvoices(
    { customer_id: customerId ?? 0, status: 'outstanding', limit: 100, offset: 0 },
    { enabled: open && customerId !== undefined },
  );
  const outstanding = useMemo(
    () =>
      [...(invoices.data?.data ?? [])].sort((a, b) =>
        a.id === invoiceId ? -1 : b.id === invoiceId ? 1 : a.due_date.localeCompare(b.due_date),
      ),
    [invoices.data, invoiceId],
  );

  // Opened from an invoice: propose its balance as the payment and the allocation.
  useEffect(() => {
    if (!open || !invoiceId) return;
    const inv = invoices.data?.data.find((i) => i.id === invoiceId);
    if (inv && amount === '' && Object.keys(allocations).length === 0) {
      setAmount(inv.balance);
      setAllocations({ [inv.id]: inv.balance });
    }
  }, [open, invoiceId, invoices.data, amount, allocations]);

  const allocated = sumDecimals(Object.values(allocations));
  const paid = parseDecimal(amount) ?? 0n;
  const rest = paid - allocated;

  const spread = () => {
    let left = paid;
    const next: Record<number, string> = {};
    for (const inv of outstanding) {
      if (left <= 0n) break;
      const balance = parseDecimal(inv.balance) ?? 0n;
      const take = balance < left ? balance : left;
      if (take > 0n) next[inv.id] = formatDecimal(take);
      left -= take;
    }
    setAllocations(next);
  };

  const submit = () => {
    const list = Object.entries(allocations)
      .filter(([, v]) => v.trim() !== '' && (parseDecimal(v) ?? 0n) !== 0n)
      .map(([id, v]) => ({ invoice_id: Number(id), amount: normaliseAmount(v) ?? v }));
    const body = {
      customer_id: customerId,
      amount: normaliseAmount(amount) ?? amount,
      payment_date: date,
      method,
      ...(reference.trim() ? { reference: reference.trim() } : {}),
      ...(list.length ? { allocations: list } : {}),
    };
    const found: string[] = [];
    const parsed = paymentBody.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        found.push(
          issue.path[0] === 'customer_id'
            ? t('payments.register.chooseCustomer')
            : `${t(`payments.register.field.${String(issue.path[0])}` as 'payments.register.field.amount', {
                defaultValue: String(issue.path[0]),
              })}: ${issue.message}`,
        );
    if (allocated > paid) found.push(t('payments.register.overAllocated'));
    for (const a of list) {
      const inv = outstanding.find((i) => i.id === a.invoice_id);
      if (inv && (parseDecimal(a.amount) ?? 0n) > (parseDecimal(inv.balance) ?? 0n))
        found.push(
          t('payments.register.overBalance', { number: inv.invoice_number, balance: f.money(inv.balance) }),
        );
    }
    setProblems(found);
    if (found.length) return;
    // mutateAsync: the refetch after success unmounts the invoice's button (nothing left to pay),
    // which would drop mutate()'s callbacks. Failures show from register.error.
    void register.mutateAsync(parsed.data!).then(
      (payment) => {
        setOpen(false);
        toast.success(t('payments.register.done', { number: payment.payment_number }));
        void navigate(`/payments/${payment.id}`);
      },
      () => {},
    );
  };

  return (
    <Drawer
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          setProblems([]);
          register.reset();
        }
      }}
    >
      <Drawer.Trigger asChild>{trigger}</Drawer.Trigger>
      <Drawer.Content className="max-w-2xl" data-testid="register-payment">
        <Drawer.Header>
          <Drawer.Title>{t('payments.register.title')}</Drawer.Title>
        </Drawer.Header>
        <Drawer.Body className="flex flex-col gap-y-4 overflow-y-auto">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-y-2 sm:col-span-2">
              <Label htmlFor="payment-customer" size="small" weight="plus">
                {t('sales.fields.customer')}
              </Label>
              {customer ? (
                <Text size="small">{customer.name}</Text>
              ) : (
                <CustomerPicker
                  id="payment-customer"
                  selected={chosenCustomer?.name ?? ''}
                  invalid={false}
                  describedBy={undefined}
                  onSelect={(c) => {
                    setChosenCustomer({ id: c.id, name: customerName(c) });
                    setAllocations({});
                  }}
                />
              )}
            </div>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="payment-amount" size="small" weight="plus">
                {t('payments.fields.amount')}
              </Label>
              <Input
                id="payment-amount"
                size="small"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                data-testid="payment-amount"
              />
            </div>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="payment-date" size="small" weight="plus">
                {t('payments.fields.date')}
              </Label>
              <Input
                id="payment-date"
                size="small"
                type="date"
                value={date}
                onChange={(e) => setDate(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="payment-method" size="small" weight="plus">
                {t('payments.fields.method')}
              </Label>
              <Select size="small" value={method} onValueChange={setMethod}>
                <Select.Trigger id="payment-method">
                  <Select.Value />
                </Select.Trigger>
                <Select.Content>
                  {paymentMethods.map((m) => (
                    <Select.Item key={m} value={m}>
                      {t(`payments.method.${m}`)}
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select>
            </div>
            <div className="flex flex-col gap-y-2">
              <Label htmlFor="payment-reference" size="small" weight="plus">
                {t('sales.fields.reference')}
              </Label>
              <Input
                id="payment-reference"
                size="small"
                value={reference}
                onChange={(e) => setReference(e.target.value)}
                data-testid="payment-reference"
              />
            </div>
          </div>

          {customerId !== undefined && (
            <div className="flex flex-col gap-y-2">
              <div className="flex items-center justify-between">
                <Text size="small" weight="plus">
                  {t('payments.register.allocations')}
                </Text>
                <Button size="small" variant="transparent" type="button" onClick={spread} disabled={!paid}>
                  {t('payments.register.spread')}
                </Button>
              </div>
              <ErrorAlert error={invoices.error} onRetry={() => void invoices.refetch()} />
              {outstanding.length === 0 && !invoices.isPending ? (
                <Text size="small" className="text-ui-fg-muted">
                  {t('payments.register.nothingOutstanding')}
                </Text>
              ) : (
                <Table data-testid="allocation-table">
                  <Table.Header>
                    <Table.Row>
                      <Table.HeaderCell>{t('sales.fields.number')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('invoices.fields.dueDate')}</Table.HeaderCell>
                      <Table.HeaderCell>{t('sales.fields.status')}</Table.HeaderCell>
                      <Table.HeaderCell className="text-right">
                        {t('invoices.fields.balance')}
                      </Table.HeaderCell>
                      <Table.HeaderCell className="w-32 text-right">
                        {t('payments.register.allocate')}
                      </Table.HeaderCell>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {outstanding.map((inv) => (
                      <Table.Row key={inv.id} data-invoice={inv.invoice_number}>
                        <Table.Cell>{inv.invoice_number}</Table.Cell>
                        <Table.Cell>{f.date(inv.due_date)}</Table.Cell>
                        <Table.Cell>
                          <DocumentStatus kind="invoice" status={inv.status} />
                        </Table.Cell>
                        <Table.Cell className="text-right">{f.money(inv.balance)}</Table.Cell>
                        <Table.Cell className="text-right">
                          <Input
                            size="small"
                            inputMode="decimal"
                            aria-label={t('payments.register.allocateTo', { number: inv.invoice_number })}
                            value={allocations[inv.id] ?? ''}
                            onChange={(e) => setAllocations((a) => ({ ...a, [inv.id]: e.target.value }))}
                          />
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table>
              )}
              <div className="flex justify-end gap-x-6">
                <Text size="small" className="text-ui-fg-subtle">
                  {t('payments.register.allocated', { amount: f.money(formatDecimal(allocated)) })}
                </Text>
                <Text
                  size="small"
                  className={rest < 0n ? 'text-ui-fg-error' : 'text-ui-fg-subtle'}
                  data-testid="payment-rest"
                >
                  {rest < 0n
                    ? t('payments.register.overAllocated')
                    : t('payments.register.toCredit', { amount: f.money(formatDecimal(rest)) })}
                </Text>
              </div>
            </div>
          )}
          {problems.length > 0 && (
            <div role="alert" className="flex flex-col gap-y-1" data-testid="payment-problems">
              {problems.map((p) => (
                <Text key={p} size="small" className="text-ui-fg-error">
                  {p}
                </Text>
              ))}
            </div>
          )}
          <ErrorAlert error={register.error} />
        </Drawer.Body>
        <Drawer.Footer>
          <Drawer.Close asChild>
            <Button size="small" variant="secondary" type="button">
              {t('general.cancel')}
            </Button>
          </Drawer.Close>
          <Button size="small" onClick={submit} isLoading={register.isPending} data-testid="payment-submit">
            {t('payments.register.submit')}
          </Button>
        </Drawer.Footer>
      </Drawer.Content>
    </Drawer>
  );
}
