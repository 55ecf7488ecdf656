import { z } from 'zod';
import { parseCidr } from './cidr';
import { secretProblem } from './secrets';

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
/** A comma-separated list of addresses and CIDR ranges; one that is not (parseCidr) is a startup error. */
export const cidrList = (fallback: string[] = []) =>
  list(fallback).superRefine((ranges, ctx) => {
    for (const range of ranges)
      if (!parseCidr(range))
        ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${range}` });
  });
export const decimal = (fallback: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'expected a decimal number like 12.99')
    .default(fallback);
export const logLevel = () =>
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
export const oneOf = <T extends string>(values: readonly [T, ...T[]], fallback: T) =>
  z.enum(values).default(fallback);

/** Marks a field whose value must never be echoed in an error message. */
export const SECRET = 'secret';

/**
 * A secret: required, no default, never a published or placeholder value (see secrets.ts). The
 * start command writes generated ones to .run/secrets.env; tests make their own.
 */
export const secret = () =>
  z
    .string()
    .min(1)
    .superRefine((v, ctx) => {
      const problem = secretProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(SECRET);

/** A base64 DER key (PKCS#8 private or SPKI public): required, no default. */
export const key = () =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]+=*$/, 'expected base64 DER (deploy/secrets.ts generates it)')
    .describe(SECRET);

/**
 * A value in a small language of its own (e.g. FLEET_REPLICAS `2,catalog=3`), parsed once at
 * start-up by `parse`; what `parse` throws becomes the problem reported for the variable.
 */
export const parsed = <T>(fallback: string, parse: (value: string) => T) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx): T => {
      try {
        return parse(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
        return z.NEVER;
      }
    });
