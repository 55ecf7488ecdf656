/** A document's status as a coloured label; the class carries the API's value for styling. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return (
    <span className={`status-badge status-${status.replace(/[^a-z_]/g, '')}`} data-status={status}>
      {label}
    </span>
  );
}
