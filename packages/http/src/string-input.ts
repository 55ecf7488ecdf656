import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from './errors';

// A NUL (PostgreSQL refuses it in text) or a UTF-16 surrogate without its partner (not valid
// Unicode: it cannot be stored, compared or encoded faithfully).
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string in `value` (keys included) that holds a NUL or a lone surrogate. */
export function badStringPath(value: unknown, root: string): string | undefined {
  // Iterative: a 5,000-deep JSON body must not cost a stack frame per level.
  const stack: Array<[unknown, string]> = [[value, root]];
  let budget = 100_000;
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (--budget < 0) return undefined;
    if (typeof v === 'string') {
      if (BAD.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, child] of Object.entries(v)) {
        if (BAD.test(k)) return `${path}.${k.replace(BAD, '?')}`;
        stack.push([child, `${path}.${k}`]);
      }
    }
  }
  return undefined;
}

/**
 * One rule for every service: a NUL byte or a lone surrogate in any string of the query, the
 * path parameters or a parsed body is a 400 naming the field, before validation and before any
 * database sees it (PostgreSQL would answer with an error, and the client with a 500).
 */
export const stringInputPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const path =
        badStringPath(request.params, 'params') ??
        badStringPath(request.query, 'query') ??
        badStringPath(request.body, 'body');
      if (path)
        throw badRequest(`${path} contains a NUL byte or an unpaired surrogate`, {
          issues: [{ path, message: 'contains a NUL byte or an unpaired surrogate' }],
        });
    });
  },
  { name: 'aplt-string-input' },
);

/** Deepest nesting of objects and arrays a JSON body may have; far above any real document. */
export const MAX_JSON_DEPTH = 100;

/** True when `text` (JSON) nests deeper than `max`; strings are skipped, so brackets in them do not count. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * JSON bodies are parsed by Fastify's own parser (prototype-poisoning checks included) after a
 * depth check: a 5,000-deep document parses, but writing it back out (a reply, a jsonb column, a
 * log line) overflows the stack, so it is refused up front with a 400.
 */
export const jsonDepthPlugin = fp(
  async (app: FastifyInstance) => {
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (jsonTooDeep(text)) {
        done(badRequest(`JSON body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
        return;
      }
      // The default parser calls `done` itself; its return value is not a promise to wait for.
      void parse(request, text, done);
    });
  },
  { name: 'aplt-json-depth' },
);
