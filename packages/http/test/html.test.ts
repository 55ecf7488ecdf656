import { describe, expect, it } from 'vitest';
import { escapeHtml, scriptJson } from '../src/html';

describe('escapeHtml', () => {
  it('escapes ampersand, angle brackets and both quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Zoet & Zuur</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Zoet &amp; Zuur&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, so an existing entity stays visible as text', () => {
    expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('turns null and undefined into the empty string and other values into their text', () => {
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(12.5)).toBe('12.5');
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});

describe('scriptJson', () => {
  it('writes every < as \\u003c so a value cannot close the script element', () => {
    const literal = scriptJson({ returnTo: '</script><script>alert(1)</script>' });
    expect(literal).not.toContain('<');
    expect(JSON.parse(literal)).toEqual({ returnTo: '</script><script>alert(1)</script>' });
  });
});
