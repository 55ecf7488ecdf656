import { Alert, Button, Heading, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, TextField, useZodForm } from '../../components/forms/form';
import { usePageTitle } from '../../components/layout/page';
import { useLogin } from '../../hooks/api/auth';
import { loginSchema } from '../../lib/schemas/auth';
import { safeRedirect } from '../../lib/session';

type Values = { email: string; password: string };

/** /app/login: e-mail and password; back to `?redirect=` (the page the session ended on). */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = safeRedirect(params.get('redirect')) ?? '/';
  const login = useLogin();
  const form = useZodForm(loginSchema, { email: params.get('email') ?? '', password: '' });
  usePageTitle(t('auth.login.submit'));

  const onSubmit = (values: Values) =>
    login.mutate(values, { onSuccess: () => void navigate(redirect, { replace: true }) });

  return (
    <div className="flex flex-col gap-y-6" data-testid="login-page">
      <div className="flex flex-col items-center gap-y-1 text-center">
        <Heading>{t('auth.login.title')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t('auth.login.hint')}
        </Text>
      </div>
      {params.get('expired') === '1' && !login.error && (
        <Alert variant="warning" data-testid="session-expired">
          {t('auth.login.expired')}
        </Alert>
      )}
      <ErrorAlert error={login.error} />
      <Form form={form} onSubmit={onSubmit} testId="login-form">
        <TextField<Values>
          name="email"
          label={t('auth.login.email')}
          type="email"
          autoComplete="username"
          autoFocus
        />
        <TextField<Values>
          name="password"
          label={t('auth.login.password')}
          type="password"
          autoComplete="current-password"
        />
        <Button type="submit" className="w-full" isLoading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Form>
      <Text size="small" className="text-center">
        <Link
          to={{
            pathname: '/forgot-password',
            search: form.watch('email') ? `?email=${encodeURIComponent(form.watch('email'))}` : '',
          }}
          className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover transition-fg"
          data-testid="forgot-link"
        >
          {t('auth.login.forgot')}
        </Link>
      </Text>
    </div>
  );
}
