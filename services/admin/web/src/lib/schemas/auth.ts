import { z } from 'zod';

/**
 * Form schemas of the sign-in pages. Messages are translation keys (`validation.*`); the form
 * fields translate them. The password rules are the auth service's (assertPasswordRules in
 * services/auth/src/shared/password-rules.ts): 10 to 128 characters, letters and digits, not
 * the e-mail address, so the form refuses what the API would refuse before sending it.
 */
export const emailField = z.string().trim().min(1, 'validation.required').pipe(z.email('validation.email'));

export const loginSchema = z.object({
  email: emailField,
  password: z.string().min(1, 'validation.required').max(1024),
});

export const forgotPasswordSchema = z.object({ email: emailField });

export const newPassword = (email?: string | null) =>
  z
    .string()
    .min(10, 'validation.passwordLength')
    .max(128, 'validation.passwordTooLong')
    .refine((v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v), 'validation.passwordMix')
    .refine((v) => !email || v.toLowerCase() !== email.toLowerCase(), 'validation.passwordNotEmail');

export const resetPasswordSchema = (email?: string | null) =>
  z
    .object({ password: newPassword(email), confirm: z.string().min(1, 'validation.required') })
    .refine((v) => v.password === v.confirm, { message: 'validation.passwordMatch', path: ['confirm'] });
