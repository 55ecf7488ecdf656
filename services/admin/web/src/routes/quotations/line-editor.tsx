import { priceProposalBody, type PriceProposalInput } from '@aplt/service-documents/schemas/price-proposal';
import { Trash } from '@medusajs/icons';
import { Badge, clx, Hint, IconButton, Input, Label, Select, Text } from '@medusajs/ui';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../components/sales/combobox';
import { formatDecimal, lineEstimate, parseDecimal } from '../../components/sales/decimal';
import { errorMessage } from '../../lib/api-error';
import {
  type CatalogProduct,
  type PriceProposal,
  type QuotationLine,
  useCatalogProduct,
  useCatalogProducts,
  usePriceProposal,
} from '../../hooks/api/quotations';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useFormat } from '../../hooks/use-format';

/*
 * The quotation's line editor. A catalog line is a product from the catalog's search with its
 * variant, print position, technique, colours and quantity: the documents service proposes its
 * prices, setup costs and VAT (`POST /admin/aplt/quotations/price-proposal`, debounced), and the
 * person may override the unit and print price, discount, VAT rate and setup costs. A free line
 * (no product) takes its description and prices as typed; the editor estimates its amount with
 * the service's formula. What the form sends is checked against the API's own schema.
 */

export interface EditorLine {
  key: string;
  kind: 'catalog' | 'custom';
  product: { id: number; sku: string; name: string } | null;
  variantSku: string;
  positionCode: string;
  techniqueId: string;
  colours: string;
  quantity: string;
  unitPrice: string;
  printPrice: string;
  discount: string;
  vatRate: string;
  /** Override of the line's setup costs in all ('' = as proposed). */
  setup: string;
  description: string;
}

let nextKey = 0;
export const newLine = (kind: EditorLine['kind'] = 'catalog'): EditorLine => ({
  key: `line-${++nextKey}`,
  kind,
  product: null,
  variantSku: '',
  positionCode: '',
  techniqueId: '',
  colours: '',
  quantity: '100',
  unitPrice: '',
  printPrice: '',
  discount: '',
  vatRate: '',
  setup: '',
  description: '',
});

/** A saved line back in the editor: catalog lines are proposed again, free lines keep their prices. */
export function lineFromSaved(l: QuotationLine): EditorLine {
  const setupTotal = l.setup_costs.reduce((acc, s) => acc + (parseDecimal(s.total) ?? 0n), 0n);
  const base = {
    ...newLine(l.product_id ? 'catalog' : 'custom'),
    quantity: String(l.quantity),
    discount: Number(l.discount_percent) ? String(Number(l.discount_percent)) : '',
    description: l.description ?? '',
  };
  if (!l.product_id)
    return {
      ...base,
      unitPrice: trimZeros(l.unit_price),
      printPrice: Number(l.print_unit_price) ? trimZeros(l.print_unit_price) : '',
      vatRate: String(Number(l.vat_rate)),
      setup: setupTotal ? formatDecimal(setupTotal) : '',
    };
  return {
    ...base,
    product: { id: l.product_id, sku: l.sku ?? '', name: l.description ?? l.sku ?? '' },
    variantSku: l.variant_id && l.sku ? l.sku : '',
    positionCode: l.print_position ?? '',
    techniqueId: l.technique_id ? String(l.technique_id) : '',
    colours: l.print_colours ? String(l.print_colours) : '',
  };
}

const trimZeros = (v: string) => v.replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1');

/** What a line contributes to the quotation, as the editor knows it now. */
export interface LineResult {
  /** A proposal for the current input is still on its way (the form waits for it). */
  pending: boolean;
  /** Goods value excl. VAT: line amount + setup costs (in 1/10,000). */
  goods: bigint;
  units: number;
  vatRate: string | null;
  setupTotal: bigint;
  lineTotal: bigint;
  /** Reverse charge (AE) or export (G): every amount of the quotation is at 0 %. */
  zeroRated: boolean;
  /** The element for `lines` of POST/PUT quotations; null while the line is incomplete. */
  payload: Record<string, unknown> | null;
  /** The proposal's input (catalog lines): the franco proposal reuses it. */
  proposalInput: PriceProposalInput | null;
  proposal: PriceProposal | null;
  error: string | null;
}

const emptyResult: LineResult = {
  pending: false,
  goods: 0n,
  units: 0,
  vatRate: null,
  setupTotal: 0n,
  lineTotal: 0n,
  zeroRated: false,
  payload: null,
  proposalInput: null,
  proposal: null,
  error: null,
};

const quantityOf = (line: EditorLine) => {
  const n = Number(line.quantity);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const blankToUndefined = (v: string) => (v.trim() === '' ? undefined : v.trim().replace(',', '.'));

/** The proposal request of a catalog line, or the reason it cannot be asked yet. */
function proposalRequest(
  line: EditorLine,
  customerId: number | undefined,
): { input: PriceProposalInput | null; problem: string | null } {
  if (!line.product) return { input: null, problem: null };
  const sku = line.variantSku || line.product.sku;
  const candidate = {
    ...(sku ? { sku } : { product_id: line.product.id }),
    quantity: quantityOf(line) ?? Number(line.quantity),
    ...(line.techniqueId ? { technique_id: Number(line.techniqueId) } : {}),
    ...(line.positionCode ? { print_position: line.positionCode } : {}),
    ...(line.techniqueId && line.colours ? { print_colours: Number(line.colours) } : {}),
    ...(blankToUndefined(line.unitPrice) ? { unit_price: blankToUndefined(line.unitPrice) } : {}),
    ...(blankToUndefined(line.printPrice) ? { print_unit_price: blankToUndefined(line.printPrice) } : {}),
    ...(blankToUndefined(line.discount) ? { discount_percent: blankToUndefined(line.discount) } : {}),
    ...(customerId ? { customer_id: customerId } : {}),
  };
  const parsed = priceProposalBody.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { input: null, problem: `${issue.path.join('.')}: ${issue.message}` };
  }
  return { input: parsed.data, problem: null };
}

/** One line of the editor: its fields, the proposal it gets, and its amount on the right. */
export function LineRow({
  line,
  index,
  customerId,
  onChange,
  onRemove,
  onResult,
  fieldErrors,
}: {
  line: EditorLine;
  index: number;
  customerId: number | undefined;
  onChange: (patch: Partial<EditorLine>) => void;
  onRemove: () => void;
  onResult: (key: string, result: LineResult) => void;
  /** Problems the API's schema found in this line when the form was sent. */
  fieldErrors: string[];
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const id = useId();

  // The catalog product behind the line (for its variants, positions and techniques).
  const [picked, setPicked] = useState<CatalogProduct | null>(null);
  const saved = useCatalogProduct(line.product && !picked ? line.product.sku : null);
  const catalog =
    picked ?? saved.data?.data.find((p) => p.id === line.product?.id) ?? saved.data?.data[0] ?? null;

  const request = useMemo(() => proposalRequest(line, customerId), [line, customerId]);
  const debouncedInput = useDebouncedValue(request.input, 350);
  const proposal = usePriceProposal(line.kind === 'catalog' ? debouncedInput : null);
  const fresh =
    line.kind === 'catalog' &&
    request.input !== null &&
    JSON.stringify(request.input) === JSON.stringify(debouncedInput) &&
    !proposal.isPlaceholderData &&
    proposal.isSuccess;

  const result = useMemo((): LineResult => {
    if (line.kind === 'custom') {
      const qty = quantityOf(line);
      const unit = blankToUndefined(line.unitPrice);
      const amount =
        qty && unit
          ? lineEstimate(qty, unit, blankToUndefined(line.printPrice), blankToUndefined(line.discount))
          : undefined;
      const setup = parseDecimal(blankToUndefined(line.setup) ?? '0') ?? 0n;
      const lineTotal = parseDecimal(amount ?? '0') ?? 0n;
      const vatRate = blankToUndefined(line.vatRate) ?? '21';
      return {
        ...emptyResult,
        goods: lineTotal + setup,
        lineTotal,
        setupTotal: setup,
        units: qty ?? 0,
        vatRate,
        payload:
          qty && unit
            ? {
                line_type: 'product',
                description: line.description,
                quantity: qty,
                unit_price: unit,
                ...(blankToUndefined(line.printPrice)
                  ? { print_unit_price: blankToUndefined(line.printPrice) }
                  : {}),
                ...(blankToUndefined(line.discount)
                  ? { discount_percent: blankToUndefined(line.discount) }
                  : {}),
                vat_rate: vatRate,
                setup_costs: setup
                  ? [
                      {
                        description: t('quotations.editor.setupDescription'),
                        quantity: 1,
                        unit_cost: formatDecimal(setup),
                        vat_rate: vatRate,
                      },
                    ]
                  : [],
              }
            : null,
      };
    }
    const p = fresh ? proposal.data! : null;
    const pending = request.input !== null && !fresh && !proposal.isError;
    if (!p)
      return {
        ...emptyResult,
        pending,
        proposalInput: request.input,
        error: request.problem ?? (proposal.isError && !pending ? errorMessage(proposal.error, t) : null),
      };
    const vatRate = blankToUndefined(line.vatRate) ?? p.vat_rate;
    const setupOverride = blankToUndefined(line.setup);
    const setupTotal =
      setupOverride !== undefined
        ? (parseDecimal(setupOverride) ?? 0n)
        : (parseDecimal(p.setup_cost_total) ?? 0n);
    const lineTotal = parseDecimal(p.line_total) ?? 0n;
    const setupCosts =
      setupOverride !== undefined
        ? setupTotal
          ? [
              {
                description: t('quotations.editor.setupDescription'),
                quantity: 1,
                unit_cost: formatDecimal(setupTotal),
                vat_rate: vatRate,
                ...(p.technique ? { technique_id: p.technique.id } : {}),
              },
            ]
          : []
        : (p.line.setup_costs as Array<Record<string, unknown>>).map((s) => ({ ...s, vat_rate: vatRate }));
    return {
      ...emptyResult,
      goods: lineTotal + setupTotal,
      lineTotal,
      setupTotal,
      units: p.quantity,
      vatRate,
      zeroRated: p.vat_category === 'AE' || p.vat_category === 'G',
      proposalInput: request.input,
      proposal: p,
      payload: {
        ...p.line,
        ...(line.description.trim() ? { description: line.description.trim() } : {}),
        vat_rate: vatRate,
        setup_costs: setupCosts,
      },
    };
  }, [line, fresh, proposal.data, proposal.isError, proposal.error, request, t]);

  useEffect(() => onResult(line.key, result), [line.key, result, onResult]);

  const positions = catalog?.print_positions ?? [];
  const position = positions.find((p) => p.code === line.positionCode);
  const techniques = position
    ? position.techniques
    : uniqueBy(
        positions.flatMap((p) => p.techniques),
        (x) => x.id,
      );
  const technique = techniques.find((x) => String(x.id) === line.techniqueId);
  const p = result.proposal;

  return (
    <li
      className="bg-ui-bg-component shadow-borders-base flex flex-col gap-y-3 rounded-lg p-4"
      data-testid={`line-${index}`}
      aria-label={t('quotations.editor.lineLabel', { n: String(index + 1) })}
    >
      <div className="flex items-start justify-between gap-x-3">
        <Text size="small" weight="plus" className="pt-1">
          {t('quotations.editor.lineLabel', { n: String(index + 1) })}
          {line.kind === 'custom' && (
            <Badge size="2xsmall" className="ml-2">
              {t('quotations.editor.freeLine')}
            </Badge>
          )}
        </Text>
        <div className="flex items-center gap-x-3">
          <div className="text-right" data-testid="line-amount">
            <Text size="small" weight="plus">
              {result.pending ? t('quotations.editor.calculating') : f.money(formatDecimal(result.goods))}
            </Text>
            {result.setupTotal > 0n && !result.pending && (
              <Text size="xsmall" className="text-ui-fg-muted">
                {t('quotations.editor.inclSetup', { amount: f.money(formatDecimal(result.setupTotal)) })}
              </Text>
            )}
          </div>
          <IconButton
            size="small"
            variant="transparent"
            type="button"
            onClick={onRemove}
            aria-label={t('quotations.editor.removeLine', { n: String(index + 1) })}
            data-testid="line-remove"
          >
            <Trash />
          </IconButton>
        </div>
      </div>

      {line.kind === 'catalog' ? (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-6">
          <Field label={t('quotations.editor.product')} id={`${id}-product`} className="md:col-span-3">
            <ProductPicker
              id={`${id}-product`}
              selected={
                line.product ? `${line.product.sku} · ${catalog ? catalog.name_nl : line.product.name}` : ''
              }
              onSelect={(product) => {
                setPicked(product);
                // The first position that offers a technique, with its default technique.
                const first =
                  product.print_positions.find((pos) => pos.techniques.length > 0) ??
                  product.print_positions[0];
                const tech = first?.techniques.find((x) => x.is_default) ?? first?.techniques[0];
                onChange({
                  product: { id: product.id, sku: product.sku, name: product.name_nl },
                  variantSku: '',
                  positionCode: first?.code ?? '',
                  techniqueId: tech ? String(tech.id) : '',
                  colours: tech ? '1' : '',
                  quantity: String(Math.max(Number(line.quantity) || 0, product.min_order_quantity || 1)),
                });
              }}
            />
          </Field>
          <Field label={t('quotations.editor.variant')} id={`${id}-variant`}>
            <OptionSelect
              id={`${id}-variant`}
              value={line.variantSku}
              onChange={(v) => onChange({ variantSku: v })}
              none={t('quotations.editor.anyVariant')}
              options={(catalog?.variants ?? []).map((v) => ({
                value: v.sku,
                label: [
                  v.color_name ?? v.sku,
                  v.stock !== null ? t('quotations.editor.stock', { n: f.number(v.stock) }) : null,
                ]
                  .filter(Boolean)
                  .join(' · '),
              }))}
              disabled={!catalog?.variants.length}
            />
          </Field>
          <Field label={t('sales.lines.quantity')} id={`${id}-qty`}>
            <Input
              id={`${id}-qty`}
              size="small"
              inputMode="numeric"
              value={line.quantity}
              onChange={(e) => onChange({ quantity: e.target.value })}
              data-testid="line-quantity"
            />
          </Field>
          <Field label={t('quotations.editor.vatRate')} id={`${id}-vat`}>
            <OptionSelect
              id={`${id}-vat`}
              value={line.vatRate}
              onChange={(v) => onChange({ vatRate: v })}
              none={
                p
                  ? t('quotations.editor.vatAuto', { rate: f.percent(p.vat_rate) })
                  : t('quotations.editor.auto')
              }
              options={vatRates.map((r) => ({ value: r, label: f.percent(r) }))}
            />
          </Field>
          <Field label={t('quotations.editor.position')} id={`${id}-position`} className="md:col-span-2">
            <OptionSelect
              id={`${id}-position`}
              value={line.positionCode}
              onChange={(v) => {
                const pos = positions.find((x) => x.code === v);
                const keep = pos?.techniques.some((x) => String(x.id) === line.techniqueId);
                const tech = pos?.techniques.find((x) => x.is_default) ?? pos?.techniques[0];
                onChange({
                  positionCode: v,
                  ...(keep ? {} : { techniqueId: tech ? String(tech.id) : '', colours: tech ? '1' : '' }),
                });
              }}
              none={t('quotations.editor.noPosition')}
              options={positions.map((pos) => ({
                value: pos.code,
                label: [pos.name ?? pos.code, pos.print_area ? `${pos.print_area} mm` : null]
                  .filter(Boolean)
                  .join(' · '),
              }))}
              disabled={!positions.length}
              testId="line-position"
            />
          </Field>
          <Field label={t('quotations.editor.technique')} id={`${id}-technique`} className="md:col-span-2">
            <OptionSelect
              id={`${id}-technique`}
              value={line.techniqueId}
              onChange={(v) => onChange({ techniqueId: v, colours: v ? line.colours || '1' : '' })}
              none={t('quotations.editor.noPrint')}
              options={techniques.map((x) => ({ value: String(x.id), label: x.name }))}
              disabled={!techniques.length}
              testId="line-technique"
            />
          </Field>
          <Field
            label={t('quotations.editor.colours')}
            id={`${id}-colours`}
            hint={
              technique?.max_colours
                ? t('quotations.editor.maxColours', { n: String(technique.max_colours) })
                : undefined
            }
          >
            <Input
              id={`${id}-colours`}
              size="small"
              inputMode="numeric"
              value={line.colours}
              disabled={!line.techniqueId}
              onChange={(e) => onChange({ colours: e.target.value })}
              data-testid="line-colours"
            />
          </Field>
          <Field label={t('quotations.editor.discount')} id={`${id}-discount`}>
            <Input
              id={`${id}-discount`}
              size="small"
              inputMode="decimal"
              placeholder="0"
              value={line.discount}
              onChange={(e) => onChange({ discount: e.target.value })}
            />
          </Field>
          <Field
            label={t('quotations.editor.unitPrice')}
            id={`${id}-unit`}
            hint={p ? sourceHint(t as (key: string) => string, 'unit', p.unit_price_source) : undefined}
          >
            <Input
              id={`${id}-unit`}
              size="small"
              inputMode="decimal"
              placeholder={p ? trimZeros(p.unit_price) : ''}
              value={line.unitPrice}
              onChange={(e) => onChange({ unitPrice: e.target.value })}
              data-testid="line-unit-price"
            />
          </Field>
          <Field
            label={t('quotations.editor.printPrice')}
            id={`${id}-print`}
            hint={p ? sourceHint(t as (key: string) => string, 'print', p.print_price_source) : undefined}
          >
            <Input
              id={`${id}-print`}
              size="small"
              inputMode="decimal"
              placeholder={p ? trimZeros(p.print_unit_price) : ''}
              value={line.printPrice}
              disabled={!line.techniqueId}
              onChange={(e) => onChange({ printPrice: e.target.value })}
              data-testid="line-print-price"
            />
          </Field>
          <Field
            label={t('quotations.editor.setup')}
            id={`${id}-setup`}
            className="md:col-span-2"
            hint={
              p && p.setup_costs.length && !line.setup
                ? p.setup_costs
                    .map((s) => `${s.description}: ${s.quantity} × ${f.money(s.unit_cost)}`)
                    .join('; ')
                : undefined
            }
          >
            <Input
              id={`${id}-setup`}
              size="small"
              inputMode="decimal"
              placeholder={p ? p.setup_cost_total : ''}
              value={line.setup}
              onChange={(e) => onChange({ setup: e.target.value })}
              data-testid="line-setup"
            />
          </Field>
          <Field label={t('quotations.editor.description')} id={`${id}-desc`} className="md:col-span-2">
            <Input
              id={`${id}-desc`}
              size="small"
              placeholder={p?.product.name ?? ''}
              value={line.description}
              onChange={(e) => onChange({ description: e.target.value })}
            />
          </Field>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-6">
          <Field label={t('quotations.editor.description')} id={`${id}-desc`} className="md:col-span-3">
            <Input
              id={`${id}-desc`}
              size="small"
              value={line.description}
              onChange={(e) => onChange({ description: e.target.value })}
              data-testid="line-description"
            />
          </Field>
          <Field label={t('sales.lines.quantity')} id={`${id}-qty`}>
            <Input
              id={`${id}-qty`}
              size="small"
              inputMode="numeric"
              value={line.quantity}
              onChange={(e) => onChange({ quantity: e.target.value })}
              data-testid="line-quantity"
            />
          </Field>
          <Field label={t('quotations.editor.unitPrice')} id={`${id}-unit`}>
            <Input
              id={`${id}-unit`}
              size="small"
              inputMode="decimal"
              value={line.unitPrice}
              onChange={(e) => onChange({ unitPrice: e.target.value })}
              data-testid="line-unit-price"
            />
          </Field>
          <Field label={t('quotations.editor.vatRate')} id={`${id}-vat`}>
            <OptionSelect
              id={`${id}-vat`}
              value={line.vatRate || '21'}
              onChange={(v) => onChange({ vatRate: v })}
              options={vatRates.map((r) => ({ value: r, label: f.percent(r) }))}
            />
          </Field>
          <Field label={t('quotations.editor.printPrice')} id={`${id}-print`}>
            <Input
              id={`${id}-print`}
              size="small"
              inputMode="decimal"
              placeholder="0"
              value={line.printPrice}
              onChange={(e) => onChange({ printPrice: e.target.value })}
            />
          </Field>
          <Field label={t('quotations.editor.discount')} id={`${id}-discount`}>
            <Input
              id={`${id}-discount`}
              size="small"
              inputMode="decimal"
              placeholder="0"
              value={line.discount}
              onChange={(e) => onChange({ discount: e.target.value })}
            />
          </Field>
          <Field label={t('quotations.editor.setup')} id={`${id}-setup`}>
            <Input
              id={`${id}-setup`}
              size="small"
              inputMode="decimal"
              placeholder="0"
              value={line.setup}
              onChange={(e) => onChange({ setup: e.target.value })}
            />
          </Field>
        </div>
      )}

      {(result.error || fieldErrors.length > 0) && (
        <div className="flex flex-col gap-y-1" role="alert" data-testid="line-error">
          {result.error && <Hint variant="error">{result.error}</Hint>}
          {fieldErrors.map((e) => (
            <Hint key={e} variant="error">
              {e}
            </Hint>
          ))}
        </div>
      )}
    </li>
  );
}

const vatRates = ['21', '9', '0'];

function sourceHint(t: (key: string) => string, kind: 'unit' | 'print', source: string): string {
  return t(`quotations.editor.source.${kind}.${source}`);
}

function uniqueBy<T>(items: T[], key: (t: T) => unknown): T[] {
  const seen = new Set();
  return items.filter((i) => (seen.has(key(i)) ? false : (seen.add(key(i)), true)));
}

function Field({
  label,
  id,
  hint,
  className,
  children,
}: {
  label: string;
  id: string;
  hint?: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={clx('flex min-w-0 flex-col gap-y-1', className)}>
      <Label htmlFor={id} size="xsmall" weight="plus" className="text-ui-fg-subtle">
        {label}
      </Label>
      {children}
      {hint && (
        <Text size="xsmall" className="text-ui-fg-muted truncate" title={hint}>
          {hint}
        </Text>
      )}
    </div>
  );
}

const NONE = '__none';

/** A select whose empty choice is a real option (Radix selects cannot hold ''). */
function OptionSelect({
  id,
  value,
  onChange,
  options,
  none,
  disabled,
  testId,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  none?: string;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <Select
      size="small"
      value={value || NONE}
      onValueChange={(v) => onChange(v === NONE ? '' : v)}
      disabled={disabled}
    >
      <Select.Trigger id={id} data-testid={testId}>
        <Select.Value />
      </Select.Trigger>
      <Select.Content>
        {none !== undefined && <Select.Item value={NONE}>{none}</Select.Item>}
        {options.map((o) => (
          <Select.Item key={o.value} value={o.value}>
            {o.label}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  );
}

/** The catalog's product search: SKU prefix or words, as the person types. */
function ProductPicker({
  id,
  selected,
  onSelect,
}: {
  id: string;
  selected: string;
  onSelect: (p: CatalogProduct) => void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text, 250);
  const [touched, setTouched] = useState(false);
  const products = useCatalogProducts(debounced, { enabled: touched });
  return (
    <Combobox<CatalogProduct>
      id={id}
      label={t('quotations.editor.product')}
      placeholder={t('quotations.editor.productPlaceholder')}
      selectedLabel={selected}
      items={products.data?.data ?? []}
      isLoading={products.isFetching}
      error={products.error ? errorMessage(products.error, t) : undefined}
      itemKey={(p) => p.id}
      onSearch={(q) => {
        setTouched(true);
        setText(q);
      }}
      onSelect={onSelect}
      testId="product-picker"
      renderItem={(p) => (
        <div className="flex items-center justify-between gap-x-3">
          <div className="flex min-w-0 flex-col">
            <Text size="small" weight="plus" leading="compact" className="truncate">
              {p.name_nl}
            </Text>
            <Text size="xsmall" className="text-ui-fg-muted font-mono">
              {p.sku}
              {p.is_sellable ? '' : ` · ${t('quotations.editor.notSellable')}`}
            </Text>
          </div>
          {p.retail_price_100 && (
            <Text size="xsmall" className="text-ui-fg-subtle shrink-0">
              {f.money(p.retail_price_100)}
            </Text>
          )}
        </div>
      )}
    />
  );
}
