import { Container, Heading, Text } from '@medusajs/ui';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../../hooks/api/tenant';

/** Sets the browser tab's title: "<page> · <tenant> · Beheer". */
export function usePageTitle(title: string | undefined): void {
  const { t } = useTranslation();
  const tenant = useTenant().data?.tenant.name;
  useEffect(() => {
    document.title = [title, tenant, t('general.appName')].filter(Boolean).join(' · ');
  }, [title, tenant, t]);
}

/** The head of a page or section: title, one line of description, actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
  level = 'h1',
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  level?: 'h1' | 'h2';
}) {
  return (
    <div className="flex items-center justify-between gap-x-4 px-6 py-4">
      <div className="flex min-w-0 flex-col gap-y-1">
        <Heading level={level}>{title}</Heading>
        {description && (
          <Text size="small" className="text-ui-fg-subtle">
            {description}
          </Text>
        )}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-x-2">{actions}</div>}
    </div>
  );
}

/**
 * A page of the panel, in Medusa's single-column layout: a first container with the header
 * (title, description, actions) and the page's main content, then further sections.
 *
 *   <Page title={t('nav.items.quotations')} actions={<Button>…</Button>}>
 *     <DataTable … />
 *   </Page>
 */
export function Page({
  title,
  description,
  actions,
  children,
  sections,
  testId,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  /** More containers below the first (use <PageSection>). */
  sections?: ReactNode;
  testId?: string;
}) {
  usePageTitle(title);
  return (
    <div className="flex flex-col gap-y-3" data-testid={testId}>
      <Container className="divide-y p-0">
        <PageHeader title={title} description={description} actions={actions} />
        {children}
      </Container>
      {sections}
    </div>
  );
}

/** A further container of a page, with its own heading and actions. */
export function PageSection({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Container className="divide-y p-0">
      <PageHeader title={title} actions={actions} level="h2" />
      {children}
    </Container>
  );
}
