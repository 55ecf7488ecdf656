import { feedFormats, updateSupplierBody } from '@aplt/service-catalog/schemas/suppliers';
import { PencilSquare } from '@medusajs/icons';
import { Badge, Button, Drawer, Select, Switch, Table, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { ErrorAlert } from '../../components/common/error-alert';
import { ErrorPanel } from '../../components/common/error-boundary';
import { SectionSpinner } from '../../components/common/full-page-spinner';
import { Form, FormField, TextField, useZodForm } from '../../components/forms/form';
import { Page, PageSection } from '../../components/layout/page';
import { ActiveBadge } from '../../components/operations/active-badge';
import { DetailList } from '../../components/operations/detail-list';
import { ReadOnlyNote } from '../../components/operations/read-only-note';
import { RunProgress, RunStatusBadge } from '../../components/operations/run-progress';
import { type SupplierDetail, useSupplier, useUpdateSupplier } from '../../hooks/api/suppliers';
import { useFormat } from '../../hooks/use-format';

type In = z.input<typeof updateSupplierBody>;
const DEFAULT = '__default';

function EditSupplierDrawer({ supplier, onClose }: { supplier: SupplierDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateSupplier(supplier.id);
  const form = useZodForm<In, z.output<typeof updateSupplierBody>>(updateSupplierBody, {
    name: supplier.name,
    website: supplier.website ?? '',
    contact_email: supplier.contact_email ?? '',
    is_active: supplier.is_active,
    feed_format: supplier.feed_format,
    margin_percent: supplier.margin_percent ?? '',
  });
  return (
    <Drawer open onOpenChange={(o) => !o && onClose()}>
      <Drawer.Content data-testid="supplier-edit">
        <Form
          form={form}
          className="flex h-full flex-col overflow-hidden"
          onSubmit={(v) =>
            update.mutate(
              {
                ...v,
                margin_percent: v.margin_percent === '' ? null : v.margin_percent,
                expected_updated_at: supplier.updated_at,
              },
              {
                onSuccess: () => {
                  toast.success(t('ops.saved'));
                  onClose();
                },
              },
            )
          }
        >
          <Drawer.Header>
            <Drawer.Title>{t('suppliers.editTitle')}</Drawer.Title>
          </Drawer.Header>
          <Drawer.Body className="flex flex-1 flex-col gap-y-4 overflow-y-auto">
            <TextField<In> name="name" label={t('ops.name')} autoFocus />
            <TextField<In> name="website" label={t('suppliers.website')} type="url" />
            <TextField<In> name="contact_email" label={t('suppliers.contactEmail')} type="email" />
            <TextField<In>
              name="margin_percent"
              label={t('suppliers.margin')}
              hint={t('suppliers.marginHint')}
              inputMode="decimal"
            />
            <FormField<In>
              name="feed_format"
              label={t('suppliers.format')}
              hint={t('suppliers.feedsHint')}
              render={({ field, id }) => (
                <Select
                  value={(field.value as string | null | undefined) ?? DEFAULT}
                  onValueChange={(v) => field.onChange(v === DEFAULT ? null : v)}
                >
                  <Select.Trigger id={id} ref={field.ref}>
                    <Select.Value />
                  </Select.Trigger>
                  <Select.Content>
                    <Select.Item value={DEFAULT}>
                      {t('suppliers.formatDefault', { format: supplier.format })}
                    </Select.Item>
                    {feedFormats.map((ff) => (
                      <Select.Item key={ff} value={ff}>
                        {ff}
                      </Select.Item>
                    ))}
                  </Select.Content>
                </Select>
              )}
            />
            <FormField<In>
              name="is_active"
              label={t('ops.active')}
              render={({ field, id }) => (
                <Switch id={id} checked={Boolean(field.value)} onCheckedChange={field.onChange} />
              )}
            />
          </Drawer.Body>
          <Drawer.Footer className="flex-col items-stretch gap-y-2">
            <ErrorAlert error={update.error} />
            <div className="flex justify-end gap-x-2">
              <Button size="small" variant="secondary" type="button" onClick={onClose}>
                {t('general.cancel')}
              </Button>
              <Button size="small" type="submit" isLoading={update.isPending} data-testid="supplier-save">
                {t('general.save')}
              </Button>
            </div>
          </Drawer.Footer>
        </Form>
      </Drawer.Content>
    </Drawer>
  );
}

/** /app/suppliers/:id: one supplier, its four connectors with their last run; edit on the master. */
export function Component() {
  const { t } = useTranslation();
  const f = useFormat();
  const { id = '' } = useParams();
  const supplier = useSupplier(id);
  const [editing, setEditing] = useState(false);
  if (supplier.isPending) return <SectionSpinner />;
  if (supplier.isError) return <ErrorPanel error={supplier.error} onRetry={() => void supplier.refetch()} />;
  const s = supplier.data;
  return (
    <Page
      title={s.name}
      description={<span className="font-mono">{s.code}</span>}
      testId="supplier-detail"
      actions={
        s.editable && (
          <Button
            size="small"
            variant="secondary"
            onClick={() => setEditing(true)}
            data-testid="supplier-edit-open"
          >
            <PencilSquare />
            {t('ops.edit')}
          </Button>
        )
      }
      sections={
        <PageSection title={t('suppliers.connectors')}>
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>{t('connectors.connector')}</Table.HeaderCell>
                <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
                <Table.HeaderCell>{t('connectors.lastRun')}</Table.HeaderCell>
                <Table.HeaderCell className="w-[240px]">{t('run.progress')}</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {s.connectors.map((c) => (
                <Table.Row key={c.name}>
                  <Table.Cell>
                    <span className="font-mono">{c.name}</span>{' '}
                    <Badge size="2xsmall">{t(`connectors.kinds.${c.kind}`)}</Badge>
                  </Table.Cell>
                  <Table.Cell>
                    <RunStatusBadge status={c.status} />
                  </Table.Cell>
                  <Table.Cell>
                    {c.last_run ? (
                      <Link
                        className="text-ui-fg-interactive hover:underline"
                        to={`/connectors/runs/${c.last_run.id}`}
                      >
                        {f.date(c.last_run.queued_at, 'datetime')}
                      </Link>
                    ) : (
                      t('connectors.noRun')
                    )}
                  </Table.Cell>
                  <Table.Cell>{c.last_run && <RunProgress run={c.last_run} compact />}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        </PageSection>
      }
    >
      {!s.editable && <ReadOnlyNote>{t('ops.readOnlyMaster')}</ReadOnlyNote>}
      <DetailList
        rows={[
          { label: t('ops.status'), value: <ActiveBadge active={s.is_active} /> },
          {
            label: t('suppliers.format'),
            value: s.feed_format ?? t('suppliers.formatDefault', { format: s.format }),
            testId: 'supplier-format',
          },
          { label: t('suppliers.website'), value: s.website },
          { label: t('suppliers.contactEmail'), value: s.contact_email },
          {
            label: t('suppliers.margin'),
            value: s.margin_percent === null ? null : f.percent(s.margin_percent),
            testId: 'supplier-margin',
          },
          {
            label: t('suppliers.feeds'),
            value: (Object.keys(s.feeds) as Array<keyof typeof s.feeds>)
              .filter((k) => s.feeds[k])
              .map((k) => t(`connectors.kinds.${k}`))
              .join(', '),
          },
          { label: t('suppliers.products'), value: f.number(s.product_count) },
          { label: t('suppliers.techniques'), value: f.number(s.technique_count) },
          { label: t('ops.updatedAt'), value: f.date(s.updated_at, 'datetime') },
        ]}
      />
      {editing && <EditSupplierDrawer supplier={s} onClose={() => setEditing(false)} />}
    </Page>
  );
}
