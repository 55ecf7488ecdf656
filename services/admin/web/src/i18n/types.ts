import type { nl } from './translations/nl';

/** The shape of the Dutch texts with every leaf a string: what every other language must fill. */
type Leaves<T> = { readonly [K in keyof T]: T[K] extends string ? string : Leaves<T[K]> };
export type Translations = Leaves<typeof nl>;

export const languages = ['nl', 'en'] as const;
export type Language = (typeof languages)[number];
export const isLanguage = (v: unknown): v is Language => languages.includes(v as Language);

/** BCP 47 locale per language, for Intl formatting. */
export const localeOf: Record<Language, string> = { nl: 'nl-NL', en: 'en-GB' };
