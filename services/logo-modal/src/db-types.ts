import type { ApltDatabase } from '@aplt/db';

/** The master aplt DB this service reads and writes (generated from the migrations). */
export type ModalDb = ApltDatabase;

export const fileKinds = [
  'logo_original',
  'logo_sanitized',
  'screenshot',
  'screenshot_hq',
  'pdf',
  'eps',
  'zip',
] as const;
export type FileKind = (typeof fileKinds)[number];
