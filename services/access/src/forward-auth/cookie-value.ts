/**
 * One cookie's value from a Cookie header, without parsing the others (forward auth reads two
 * names on every request). Percent-encoded values are decoded; a malformed one reads as absent.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let from = 0;
  while (from < header.length) {
    const at = header.indexOf(name, from);
    if (at < 0) return undefined;
    const before = at === 0 ? ';' : header[at - 1];
    const eq = at + name.length;
    if ((before === ';' || before === ' ') && header[eq] === '=') {
      const end = header.indexOf(';', eq + 1);
      let value = (end < 0 ? header.slice(eq + 1) : header.slice(eq + 1, end)).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      if (!value.includes('%')) return value;
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
    from = eq;
  }
  return undefined;
}
