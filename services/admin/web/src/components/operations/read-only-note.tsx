import { InformationCircleSolid } from '@medusajs/icons';
import { Text } from '@medusajs/ui';

/** A note at the top of a section that says why its records cannot be changed here. */
export function ReadOnlyNote({ children, testId = 'read-only-note' }: { children: string; testId?: string }) {
  return (
    <div className="bg-ui-bg-subtle flex items-start gap-x-2 px-6 py-3" data-testid={testId} role="note">
      <InformationCircleSolid className="text-ui-fg-subtle mt-0.5 shrink-0" />
      <Text size="small" className="text-ui-fg-subtle">
        {children}
      </Text>
    </div>
  );
}
