import 'i18next';
import type { nl } from './translations/nl';

// t('...') accepts only keys that exist in the Dutch texts.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof nl };
  }
}
