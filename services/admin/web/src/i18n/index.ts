import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './translations/en';
import { nl } from './translations/nl';
import { isLanguage, type Language } from './types';

export { languages, localeOf, type Language } from './types';

/** localStorage key of the user's language choice (Dutch until they choose). */
export const LANGUAGE_STORAGE_KEY = 'aplt.admin.language';
const DEFAULT_LANGUAGE: Language = 'nl';

export function storedLanguage(): Language {
  try {
    const v = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice holds for this tab only.
  }
  await i18n.changeLanguage(language);
}

export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE);

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

void i18n.use(initReactI18next).init({
  resources: { nl: { translation: nl }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['nl', 'en'],
  interpolation: { escapeValue: false },
  returnNull: false,
  // A key without a text is a bug: say so in the console, where the browser tests look.
  saveMissing: true,
  missingKeyHandler: (_lngs, _ns, key) => console.error(`i18n: missing translation key "${key}"`),
});
document.documentElement.lang = i18n.language;

export default i18n;
