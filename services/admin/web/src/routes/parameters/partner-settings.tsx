import { Button, Input, Label, Switch, Text, toast } from '@medusajs/ui';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/common/error-alert';
import { PageSection } from '../../components/layout/page';
import {
  type PartnerSettings,
  type PartnerSettingsChange,
  usePartnerSettings,
  useUpdatePartnerSettings,
} from '../../hooks/api/partner';

interface Draft {
  enabled: boolean;
  base_url: string;
  username: string;
  password: string;
  supplier_codes: string;
}

const draftOf = (s: PartnerSettings): Draft => ({
  enabled: s.enabled,
  base_url: s.base_url ?? '',
  username: s.username ?? '',
  password: '',
  supplier_codes: s.supplier_codes.join(', '),
});

/**
 * The tenant's partner fulfilment settings (issue #16): address, user name, the password (write
 * only: the page shows whether one is stored, an empty box keeps it), the suppliers whose products
 * the partner fulfils, and the switch. The service checks everything (a bad address, a supplier
 * code that is not two digits, switching on with something missing) and the page shows its answer.
 */
export function PartnerSettingsSection() {
  const { t } = useTranslation();
  const settings = usePartnerSettings();
  const update = useUpdatePartnerSettings();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [codesError, setCodesError] = useState<string | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(draftOf(settings.data));
  }, [settings.data]);
  if (settings.error || !settings.data || !draft) return null;
  const s = settings.data;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const save = () => {
    const body: PartnerSettingsChange = {};
    if (draft.enabled !== s.enabled) body.enabled = draft.enabled;
    if (draft.base_url.trim() !== (s.base_url ?? '')) body.base_url = draft.base_url.trim() || null;
    if (draft.username.trim() !== (s.username ?? '')) body.username = draft.username.trim() || null;
    if (draft.password) body.password = draft.password;
    const codes = draft.supplier_codes
      .split(/[\s,;]+/)
      .map((c) => c.trim())
      .filter(Boolean);
    const bad = codes.filter((c) => !/^[0-9]{2}$/.test(c));
    setCodesError(bad.length ? t('orders.partner.settings.badCodes', { codes: bad.join(', ') }) : null);
    if (bad.length) return;
    if (codes.join(',') !== s.supplier_codes.join(',')) body.supplier_codes = codes;
    if (Object.keys(body).length === 0) {
      toast.info(t('orders.partner.settings.noChanges'));
      return;
    }
    update.mutate(body, { onSuccess: () => toast.success(t('orders.partner.settings.saved')) });
  };

  const field = (name: keyof Draft, label: string, input: ReactNode, hint?: string, invalid = false) => (
    <div className="flex flex-col gap-y-1" key={name}>
      <Label htmlFor={`partner-${name}`} size="small" weight="plus">
        {label}
      </Label>
      {input}
      {hint && (
        <Text
          size="xsmall"
          className={invalid ? 'text-ui-fg-error' : 'text-ui-fg-muted'}
          data-testid={invalid ? `partner-${name}-error` : undefined}
        >
          {hint}
        </Text>
      )}
    </div>
  );

  return (
    <PageSection
      title={t('orders.partner.title')}
      actions={
        <div className="flex items-center gap-x-2">
          <Label htmlFor="partner-enabled" size="small">
            {t('orders.partner.settings.enabled')}
          </Label>
          <Switch
            id="partner-enabled"
            checked={draft.enabled}
            onCheckedChange={(enabled) => set({ enabled })}
            data-testid="partner-enabled"
          />
        </div>
      }
    >
      <div className="grid grid-cols-1 gap-4 px-6 py-4 md:grid-cols-2" data-testid="partner-settings">
        {field(
          'base_url',
          t('orders.partner.settings.baseUrl'),
          <Input
            id="partner-base_url"
            value={draft.base_url}
            placeholder="https://partner.example/"
            onChange={(e) => set({ base_url: e.target.value })}
          />,
        )}
        {field(
          'supplier_codes',
          t('orders.partner.settings.suppliers'),
          <Input
            id="partner-supplier_codes"
            value={draft.supplier_codes}
            placeholder="03, 07"
            onChange={(e) => set({ supplier_codes: e.target.value })}
          />,
          codesError ?? t('orders.partner.settings.suppliersHint'),
          !!codesError,
        )}
        {field(
          'username',
          t('orders.partner.settings.username'),
          <Input
            id="partner-username"
            value={draft.username}
            autoComplete="off"
            onChange={(e) => set({ username: e.target.value })}
          />,
        )}
        {field(
          'password',
          t('orders.partner.settings.password'),
          <Input
            id="partner-password"
            type="password"
            autoComplete="new-password"
            value={draft.password}
            placeholder={s.password_set ? '••••••••' : ''}
            onChange={(e) => set({ password: e.target.value })}
          />,
          s.password_set
            ? t('orders.partner.settings.passwordSet')
            : t('orders.partner.settings.passwordUnset'),
        )}
      </div>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        <ErrorAlert error={update.error} />
        <div className="flex justify-end gap-x-2">
          <Button size="small" variant="secondary" type="button" onClick={() => setDraft(draftOf(s))}>
            {t('general.cancel')}
          </Button>
          <Button size="small" isLoading={update.isPending} onClick={save} data-testid="partner-save">
            {t('orders.partner.settings.save')}
          </Button>
        </div>
      </div>
    </PageSection>
  );
}
