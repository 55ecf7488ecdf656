/** The account's current password, asked before anything that changes how one signs in. */
export function CurrentPasswordField({ label }: { label: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      <input name="password" type="password" autoComplete="current-password" required maxLength={1024} />
    </label>
  );
}
