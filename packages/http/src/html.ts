const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes a value for HTML text and for a quoted attribute value (either quote). The one copy for
 * every server-rendered page, e-mail and proof; `null` and `undefined` become the empty string.
 */
export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]!);

/**
 * A value as a JavaScript literal for an inline `<script>`: JSON with every `<` written as
 * `\u003c`, so no string in it can close the script element (`</script>`) or open a comment.
 */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');
