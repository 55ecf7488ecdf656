import { Button, Heading, Text } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/common/error-alert';
import { Form, TextField, useZodForm } from '../../components/forms/form';
import { usePageTitle } from '../../components/layout/page';
import { useRequestPasswordReset } from '../../hooks/api/auth';
import { forgotPasswordSchema } from '../../lib/schemas/auth';

type Values = { email: string };

const linkClass = 'text-ui-fg-interactive hover:text-ui-fg-interactive-hover transition-fg';

/** /app/forgot-password: asks the auth service to e-mail a reset link. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useZodForm(forgotPasswordSchema, { email: params.get('email') ?? '' });
  usePageTitle(t('auth.forgot.title'));

  if (sentTo) {
    return (
      <div className="flex flex-col items-center gap-y-4 text-center" data-testid="reset-sent">
        <Heading>{t('auth.forgot.sentTitle')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t('auth.forgot.sent', { email: sentTo })}
        </Text>
        <Text size="small">
          <Link to="/login" className={linkClass}>
            {t('auth.forgot.backToLogin')}
          </Link>
        </Text>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-y-6" data-testid="forgot-page">
      <div className="flex flex-col items-center gap-y-1 text-center">
        <Heading>{t('auth.forgot.title')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t('auth.forgot.hint')}
        </Text>
      </div>
      <ErrorAlert error={request.error} />
      <Form
        form={form}
        onSubmit={(v: Values) => request.mutate(v, { onSuccess: () => setSentTo(v.email) })}
        testId="forgot-form"
      >
        <TextField<Values>
          name="email"
          label={t('auth.login.email')}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <Button type="submit" className="w-full" isLoading={request.isPending} data-testid="forgot-submit">
          {t('auth.forgot.submit')}
        </Button>
      </Form>
      <Text size="small" className="text-center">
        <Link to="/login" className={linkClass}>
          {t('auth.forgot.backToLogin')}
        </Link>
      </Text>
    </div>
  );
}
