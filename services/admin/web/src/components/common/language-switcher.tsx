import { Select } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { changeLanguage, languages } from '../../i18n';
import { isLanguage } from '../../i18n/types';

/** Nederlands / English; the choice is remembered in localStorage. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className={className}>
      <Select
        size="small"
        value={i18n.language}
        onValueChange={(v) => {
          if (isLanguage(v)) void changeLanguage(v);
        }}
      >
        <Select.Trigger aria-label={t('general.language')} data-testid="language-switcher">
          <Select.Value />
        </Select.Trigger>
        <Select.Content>
          {languages.map((l) => (
            <Select.Item key={l} value={l}>
              {t(`languages.${l}`)}
            </Select.Item>
          ))}
        </Select.Content>
      </Select>
    </div>
  );
}
