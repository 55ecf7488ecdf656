import { MagnifyingGlass } from '@medusajs/icons';
import { Text } from '@medusajs/ui';
import type { ComponentType, ReactNode } from 'react';

/** An empty list or a page with nothing to show yet: icon, title, one line, optional action. */
export function EmptyState({
  title,
  description,
  icon: Icon = MagnifyingGlass,
  action,
  testId,
}: {
  title: string;
  description?: string;
  icon?: ComponentType<{ className?: string }>;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      className="flex min-h-[240px] flex-col items-center justify-center gap-y-3 px-6 py-10 text-center"
      data-testid={testId}
    >
      <Icon className="text-ui-fg-subtle" />
      <div className="flex flex-col items-center gap-y-1">
        <Text size="small" weight="plus" leading="compact">
          {title}
        </Text>
        {description && (
          <Text size="small" className="text-ui-fg-muted max-w-md">
            {description}
          </Text>
        )}
      </div>
      {action}
    </div>
  );
}
