import { Button, Drawer, Label, Table, Tabs, Text, Textarea } from '@medusajs/ui';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAiAssist, useGenerateLines } from '../../hooks/api/ai';
import { useFormat } from '../../hooks/use-format';
import { ErrorAlert } from '../common/error-alert';

const asText = (v: unknown) =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);

function Ask() {
  const { t } = useTranslation();
  const id = useId();
  const ask = useAiAssist();
  const [question, setQuestion] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!question.trim()) return setMissing(true);
    ask.mutate(question.trim());
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-y-3" data-testid="ai-ask">
      <Label htmlFor={id} size="small" weight="plus">
        {t('ai.ask')}
      </Label>
      <Textarea
        id={id}
        value={question}
        maxLength={1000}
        rows={3}
        placeholder={t('ai.askPlaceholder')}
        aria-invalid={missing}
        onChange={(e) => {
          setMissing(false);
          setQuestion(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e);
        }}
      />
      {missing && (
        <Text size="small" className="text-ui-fg-error" role="alert">
          {t('ai.required')}
        </Text>
      )}
      <div className="flex justify-end">
        <Button size="small" type="submit" isLoading={ask.isPending}>
          {t('ai.askSubmit')}
        </Button>
      </div>
      <ErrorAlert error={ask.error} />
      {ask.data && (
        <div className="flex flex-col gap-y-2" data-testid="ai-answer">
          <Text size="small" weight="plus">
            {t('ai.answer')}
          </Text>
          <Text size="small" className="whitespace-pre-wrap">
            {ask.data.answer}
          </Text>
          {Object.keys(ask.data.data).length > 0 && (
            <details className="text-ui-fg-subtle text-xs">
              <summary className="cursor-pointer">{t('ai.figures')}</summary>
              <dl className="mt-2 grid grid-cols-2 gap-1">
                {Object.entries(ask.data.data).map(([k, v]) => (
                  <div key={k} className="contents">
                    <dt className="font-mono">{k}</dt>
                    <dd className="truncate">{asText(v)}</dd>
                  </div>
                ))}
              </dl>
            </details>
          )}
          <Text size="xsmall" className="text-ui-fg-muted">
            {t('ai.provider', { provider: ask.data.provider })}
          </Text>
        </div>
      )}
    </form>
  );
}

/** Quotation lines proposed from a free text, priced from our own scales. */
export function GenerateLines() {
  const { t } = useTranslation();
  const f = useFormat();
  const id = useId();
  const generate = useGenerateLines();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return setMissing(true);
    generate.mutate(text.trim());
  };
  const result = generate.data;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-y-3" data-testid="ai-lines">
      <Label htmlFor={id} size="small" weight="plus">
        {t('ai.lines')}
      </Label>
      <Textarea
        id={id}
        value={text}
        maxLength={2000}
        rows={4}
        placeholder={t('ai.linesPlaceholder')}
        aria-invalid={missing}
        onChange={(e) => {
          setMissing(false);
          setText(e.target.value);
        }}
      />
      {missing && (
        <Text size="small" className="text-ui-fg-error" role="alert">
          {t('ai.required')}
        </Text>
      )}
      <div className="flex justify-end">
        <Button size="small" type="submit" isLoading={generate.isPending}>
          {t('ai.linesSubmit')}
        </Button>
      </div>
      <ErrorAlert error={generate.error} />
      {result && (
        <div className="flex flex-col gap-y-2" data-testid="ai-lines-result">
          {result.lines.length === 0 ? (
            <Text size="small">{t('ai.noLines')}</Text>
          ) : (
            <div className="overflow-x-auto rounded-md border">
              <Table>
                <Table.Header>
                  <Table.Row>
                    <Table.HeaderCell className="text-right">{t('ai.quantity')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ai.product')}</Table.HeaderCell>
                    <Table.HeaderCell>{t('ai.technique')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('ai.unitPrice')}</Table.HeaderCell>
                    <Table.HeaderCell className="text-right">{t('ai.lineTotal')}</Table.HeaderCell>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {result.lines.map((l, i) => (
                    <Table.Row key={i}>
                      <Table.Cell className="text-right tabular-nums">{f.number(l.quantity)}</Table.Cell>
                      <Table.Cell className="whitespace-normal">
                        {l.name}
                        <span className="text-ui-fg-muted block font-mono text-xs">
                          {l.variant_sku ?? l.sku}
                          {l.colour ? ` · ${l.colour}` : ''}
                        </span>
                      </Table.Cell>
                      <Table.Cell className="whitespace-normal">
                        {l.technique ? `${l.technique.name} · ${l.print_colours}` : '—'}
                        {l.technique && (
                          <span className="text-ui-fg-muted block text-xs">
                            {t('ai.printPrice')} {f.money(l.print_unit_price)} · {t('ai.setup')}{' '}
                            {f.money(l.setup_cost)}
                          </span>
                        )}
                      </Table.Cell>
                      <Table.Cell className="text-right tabular-nums">{f.money(l.unit_price)}</Table.Cell>
                      <Table.Cell className="text-right tabular-nums">{f.money(l.line_total)}</Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table>
            </div>
          )}
          <div className="flex justify-between">
            <Text size="small" weight="plus">
              {t('ai.total')}
            </Text>
            <Text size="small" weight="plus" className="tabular-nums">
              {f.money(result.total, result.currency)}
            </Text>
          </div>
          {result.unmatched.length > 0 && (
            <Text size="small" className="text-ui-fg-subtle">
              {t('ai.unmatched')}: {result.unmatched.join('; ')}
            </Text>
          )}
          <Text size="xsmall" className="text-ui-fg-muted">
            {t('ai.provider', { provider: result.provider })}
          </Text>
        </div>
      )}
    </form>
  );
}

/** The assistant's drawer: a question about the figures, or quotation lines from a text. */
export default function AiPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} onOpenChange={onOpenChange}>
      <Drawer.Content data-testid="ai-panel">
        <Drawer.Header>
          <Drawer.Title>{t('ai.title')}</Drawer.Title>
          <Drawer.Description>{t('ai.description')}</Drawer.Description>
        </Drawer.Header>
        <Drawer.Body className="overflow-y-auto">
          <Tabs defaultValue="ask">
            <Tabs.List>
              <Tabs.Trigger value="ask">{t('ai.ask')}</Tabs.Trigger>
              <Tabs.Trigger value="lines" data-testid="ai-tab-lines">
                {t('ai.lines')}
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="ask" className="pt-4">
              <Ask />
            </Tabs.Content>
            <Tabs.Content value="lines" className="pt-4">
              <GenerateLines />
            </Tabs.Content>
          </Tabs>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer>
  );
}
