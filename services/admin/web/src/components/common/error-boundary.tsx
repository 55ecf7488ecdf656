import { ExclamationCircle } from '@medusajs/icons';
import { Button, Container, Heading, Text } from '@medusajs/ui';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { errorMessage, isChunkLoadError } from '../../lib/api-error';
import { NotFound } from './not-found';

/** What a failed page shows instead of a blank screen: what happened and a way on. */
export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  return (
    <Container
      className="flex flex-col items-center gap-y-4 px-6 py-12 text-center"
      data-testid="error-panel"
    >
      <ExclamationCircle className="text-ui-fg-error" />
      <div className="flex flex-col gap-y-1">
        <Heading level="h2">{t('errors.title')}</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {chunk ? t('errors.chunk') : t('errors.page')}
        </Text>
        {!chunk && (
          <Text size="small" className="text-ui-fg-muted" data-testid="error-message">
            {errorMessage(error, t)}
          </Text>
        )}
      </div>
      <div className="flex gap-x-2">
        {onRetry && !chunk && (
          <Button size="small" variant="secondary" onClick={onRetry}>
            {t('general.retry')}
          </Button>
        )}
        <Button size="small" variant="secondary" onClick={() => window.location.reload()}>
          {t('general.reload')}
        </Button>
      </div>
    </Container>
  );
}

/** The router's error element: a thrown error or a failed lazy page, inside the shell. */
export function RouteError() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound path={location.pathname} />;
  return <ErrorPanel error={error} />;
}

/**
 * Catches render errors below it (outside the router too) so one broken widget never blanks
 * the panel. `resetKey` (e.g. the pathname) clears the error when it changes.
 */
export class ErrorBoundary extends Component<
  { children: ReactNode; resetKey?: unknown; fallback?: (error: unknown, reset: () => void) => ReactNode },
  { error: unknown; key: unknown }
> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: unknown }, state: { error: unknown; key: unknown }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('admin panel: render error', error, info.componentStack);
  }

  private readonly reset = () => this.setState({ error: null });

  override render() {
    if (this.state.error) {
      return this.props.fallback ? (
        this.props.fallback(this.state.error, this.reset)
      ) : (
        <div className="p-6">
          <ErrorPanel error={this.state.error} onRetry={this.reset} />
        </div>
      );
    }
    return this.props.children;
  }
}
