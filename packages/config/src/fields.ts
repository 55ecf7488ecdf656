import { z } from 'zod';

/** Field builders for environment variables, which always arrive as strings. */
export const str = (fallback?: string) =>
  fallback === undefined ? z.string().min(1) : z.string().min(1).default(fallback);
export const optionalStr = () => z.string().min(1).optional();
export const int = (fallback?: number) => {
  const base = z.coerce.number().int();
  return fallback === undefined ? base : base.default(fallback);
};
export const port = (fallback?: number) => {
  const base = z.coerce.number().int().min(0).max(65535);
  return fallback === undefined ? base : base.default(fallback);
};
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const url = (fallback?: string) => (fallback === undefined ? z.url() : z.url().default(fallback));
export const list = (fallback: string[] = []) =>
  z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? fallback
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
    );
export const decimal = (fallback: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'expected a decimal number like 12.99')
    .default(fallback);
export const logLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
export const oneOf = <T extends string>(values: readonly [T, ...T[]], fallback: T) =>
  z.enum(values).default(fallback);
