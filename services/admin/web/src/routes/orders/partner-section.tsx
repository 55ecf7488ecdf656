import { Button, Prompt, StatusBadge, Text, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/common/error-alert';
import { PageSection } from '../../components/layout/page';
import { Fields } from '../../components/sales/detail';
import { type PartnerState, useOrderPartner, useResendToPartner } from '../../hooks/api/partner';
import { useFormat } from '../../hooks/use-format';

const colour: Record<PartnerState, 'grey' | 'orange' | 'red' | 'blue' | 'green' | 'purple'> = {
  queued: 'grey',
  sending: 'orange',
  failed: 'red',
  pushed: 'blue',
  confirmed: 'blue',
  shipped: 'purple',
  delivered: 'green',
  cancelled: 'grey',
};

/**
 * The order's partner fulfilment (issue #16): where the sync stands, the partner's ids, the last
 * failure, and the resend - offered for a failed order (or one never queued), and behind a
 * confirmation as "send again anyway" for one the partner holds (the same key, so the partner
 * still keeps one order). Orders without partner lines show nothing.
 */
export function PartnerSection({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const state = useOrderPartner(orderId);
  const resend = useResendToPartner(orderId);
  const [confirmForce, setConfirmForce] = useState(false);
  if (state.error) return null;
  const s = state.data;
  if (!s || (!s.sync && s.partner_lines === 0)) return null;
  const sync = s.sync;
  const send = (force: boolean) =>
    resend.mutate(force ? { force: true } : {}, {
      onSuccess: () => {
        setConfirmForce(false);
        toast.success(t('orders.partner.queued'));
      },
    });
  const canResend = !sync || sync.status === 'failed';
  const canForce = !!sync && !['queued', 'sending', 'failed'].includes(sync.status);

  return (
    <PageSection
      title={t('orders.partner.title')}
      actions={
        <div className="flex items-center gap-x-2" data-testid="order-partner-actions">
          {sync && (
            <StatusBadge
              color={colour[sync.status]}
              data-testid="order-partner-status"
              data-status={sync.status}
            >
              {t(`orders.partner.status.${sync.status}`)}
            </StatusBadge>
          )}
          {canResend && (
            <Button
              size="small"
              variant="secondary"
              isLoading={resend.isPending}
              onClick={() => send(false)}
              data-testid="order-partner-resend"
            >
              {t(sync ? 'orders.partner.resend' : 'orders.partner.send')}
            </Button>
          )}
          {canForce && (
            <Button
              size="small"
              variant="transparent"
              onClick={() => setConfirmForce(true)}
              data-testid="order-partner-force"
            >
              {t('orders.partner.force')}
            </Button>
          )}
        </div>
      }
    >
      {!sync ? (
        <Text size="small" className="text-ui-fg-muted px-6 py-4" data-testid="order-partner-none">
          {t('orders.partner.never', { count: s.partner_lines })}
        </Text>
      ) : (
        <Fields
          items={[
            {
              label: t('orders.partner.process'),
              value: sync.partner_process_id,
              testId: 'order-partner-process',
            },
            { label: t('orders.partner.document'), value: sync.partner_document_id },
            { label: t('orders.partner.lines'), value: f.number(s.partner_lines) },
            {
              label: t('orders.partner.sentAt'),
              value: sync.sent_at ? f.date(sync.sent_at, 'datetime') : null,
            },
            { label: t('orders.partner.attempts'), value: f.number(sync.attempts) },
            {
              label: t('orders.partner.lastRead'),
              value: sync.last_polled_at ? f.date(sync.last_polled_at, 'datetime') : null,
            },
            ...(sync.error_message
              ? [
                  {
                    label: t('orders.partner.error'),
                    value: (
                      <span className="text-ui-fg-error break-words" data-testid="order-partner-error">
                        {sync.error_message}
                      </span>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <ErrorAlert error={resend.error} />
      <Prompt open={confirmForce} onOpenChange={setConfirmForce}>
        <Prompt.Content>
          <Prompt.Header>
            <Prompt.Title>{t('orders.partner.forceTitle', { number: s.order_number })}</Prompt.Title>
            <Prompt.Description>{t('orders.partner.forceDescription')}</Prompt.Description>
          </Prompt.Header>
          <Prompt.Footer>
            <Prompt.Cancel>{t('general.cancel')}</Prompt.Cancel>
            <Prompt.Action onClick={() => send(true)}>{t('orders.partner.force')}</Prompt.Action>
          </Prompt.Footer>
        </Prompt.Content>
      </Prompt>
    </PageSection>
  );
}
