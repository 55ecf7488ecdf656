import type {
  brandRecord,
  cmsSetting,
  footerSection,
  menuRecord,
  moduleRecord,
  pageRecord,
  translationRecord,
} from '@aplt/service-documents/schemas/content';
import type { z } from 'zod';
import type { Json } from '../../lib/json';

/** The records of the content group's lists, as the browser receives them. */
export type CmsSetting = Json<z.infer<typeof cmsSetting>>;
export type FooterSection = Json<z.infer<typeof footerSection>>;
export type ModuleRecord = Json<z.infer<typeof moduleRecord>>;
export type BrandRecord = Json<z.infer<typeof brandRecord>>;
export type PageRecord = Json<z.infer<typeof pageRecord>>;
export type MenuRecord = Json<z.infer<typeof menuRecord>>;
export type TranslationRecord = Json<z.infer<typeof translationRecord>>;
