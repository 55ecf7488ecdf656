import { Alert, Button, Heading, Text } from '@medusajs/ui';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, TextField, useZodForm } from '../../components/forms/form';
import { usePageTitle } from '../../components/layout/page';
import { useResetPassword } from '../../hooks/api/auth';
import { resetPasswordSchema } from '../../lib/schemas/auth';

type Values = { password: string; confirm: string };

const linkClass = 'text-ui-fg-interactive hover:text-ui-fg-interactive-hover transition-fg';

/**
 * /app/reset-password?token=&email=: the link of the auth service's reset e-mail. The token
 * goes to `POST /auth/user/emailpass/update` (sdk.auth.updateProvider); a used, expired or
 * forged one answers 401 and its message is shown here.
 */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  const schema = useMemo(() => resetPasswordSchema(email), [email]);
  const form = useZodForm(schema, { password: '', confirm: '' });
  usePageTitle(t('auth.reset.title'));

  const forgotLink = (
    <Link
      to={email ? `/forgot-password?email=${encodeURIComponent(email)}` : '/forgot-password'}
      className={linkClass}
    >
      {t('auth.reset.requestNew')}
    </Link>
  );

  if (done) {
    return (
      <div className="flex flex-col items-center gap-y-4 text-center" data-testid="reset-done">
        <Heading>{t('auth.reset.doneTitle')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t('auth.reset.done')}
        </Text>
        <Button asChild className="w-full">
          <Link
            to={email ? `/login?email=${encodeURIComponent(email)}` : '/login'}
            data-testid="reset-to-login"
          >
            {t('auth.reset.toLogin')}
          </Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-y-6" data-testid="reset-page">
      <div className="flex flex-col items-center gap-y-1 text-center">
        <Heading>{t('auth.reset.title')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {email ? t('auth.reset.hint', { email }) : t('auth.reset.hintNoEmail')}
        </Text>
      </div>
      {!token ? (
        <Alert variant="error" data-testid="reset-missing-token">
          {t('auth.reset.missingToken')}
        </Alert>
      ) : (
        <>
          {reset.error && (
            <div className="flex flex-col gap-y-2" data-testid="reset-error">
              <ErrorAlert error={reset.error} />
              <Text size="small" className="text-ui-fg-subtle">
                {t('auth.reset.failed')} {forgotLink}
              </Text>
            </div>
          )}
          <Form
            form={form}
            onSubmit={(v: Values) =>
              reset.mutate({ token, password: v.password }, { onSuccess: () => setDone(true) })
            }
            testId="reset-form"
          >
            {/* Lets password managers file the new password under the right account. */}
            {email && (
              <input type="email" name="username" value={email} autoComplete="username" readOnly hidden />
            )}
            <TextField<Values>
              name="password"
              label={t('auth.reset.password')}
              hint={t('auth.reset.rules')}
              type="password"
              autoComplete="new-password"
              autoFocus
            />
            <TextField<Values>
              name="confirm"
              label={t('auth.reset.confirm')}
              type="password"
              autoComplete="new-password"
            />
            <Button type="submit" className="w-full" isLoading={reset.isPending} data-testid="reset-submit">
              {t('auth.reset.submit')}
            </Button>
          </Form>
        </>
      )}
      <Text size="small" className="text-center">
        {token ? (
          <Link to="/login" className={linkClass}>
            {t('auth.forgot.backToLogin')}
          </Link>
        ) : (
          forgotLink
        )}
      </Text>
    </div>
  );
}
