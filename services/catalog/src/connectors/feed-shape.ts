import type { Readable } from 'node:stream';
import sax from 'sax';
import type { FeedFormat } from './connector-registry';
import { tsvHeader } from './readers/tsv-reader';

/** At most this many names are reported (a feed in another shape may have thousands of keys). */
const MAX_NAMES = 20;

const list = (names: Iterable<string>) => {
  const all = [...names];
  const shown = all.slice(0, MAX_NAMES).map((n) => JSON.stringify(n));
  return all.length > MAX_NAMES ? `${shown.join(', ')} and ${all.length - MAX_NAMES} more` : shown.join(', ');
};

/**
 * What a feed holds at its top, for the error of a non-empty feed that yielded no records
 * (issue #16: a print-data file in another shape was reported as succeeded with 0 rows): a JSON
 * object's keys (or, for a root array, the keys of its first element), an XML document's root
 * element and the names of its children, a tab-separated file's columns. Reads at most `maxBytes`.
 */
export async function describeFeedShape(
  input: Readable,
  format: FeedFormat,
  maxBytes = 64 * 1024 * 1024,
): Promise<string> {
  let read = 0;
  const chunks = async function* () {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      read += chunk.length;
      yield typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (read >= maxBytes) return;
    }
  };
  if (format === 'tsv') {
    for await (const text of chunks()) {
      const line = text
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)
        .find((l) => l.trim() !== '');
      if (line) return `columns found: ${list(tsvHeader(line))}`;
    }
    return 'no columns found';
  }
  if (format === 'xml') {
    const parser = sax.parser(true, { trim: true });
    let root = '';
    const children = new Set<string>();
    let depth = 0;
    parser.onopentag = (node) => {
      if (depth === 0) root = node.name;
      else if (depth === 1) children.add(node.name);
      depth++;
    };
    parser.onclosetag = () => {
      depth--;
    };
    parser.onerror = () => {
      parser.resume();
    };
    for await (const text of chunks()) parser.write(text);
    return root
      ? `root element ${JSON.stringify(root)} with child elements: ${children.size ? list(children) : 'none'}`
      : 'no XML element found';
  }
  // JSON: the keys at depth 1 of a root object, or at depth 2 of a root array's first element.
  const keys = new Set<string>();
  const stack: Array<'{' | '['> = [];
  let rootKind: '{' | '[' | undefined;
  let inString = false;
  let escape = false;
  let str = '';
  let expectKey = false;
  let firstElement = true;
  for await (const text of chunks()) {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (inString) {
        if (escape) escape = false;
        else if (c === '\\') escape = true;
        else if (c === '"') {
          inString = false;
          const keyDepth = rootKind === '[' ? 2 : 1;
          if (expectKey && stack.length === keyDepth && (rootKind === '{' || firstElement)) keys.add(str);
          if (keys.size > 1000) break;
        } else str += c;
        continue;
      }
      if (c === '"') {
        inString = true;
        str = '';
      } else if (c === '{' || c === '[') {
        rootKind ??= c;
        stack.push(c);
        expectKey = c === '{';
      } else if (c === '}' || c === ']') {
        stack.pop();
        if (rootKind === '[' && stack.length === 1) firstElement = false;
      } else if (c === ':') expectKey = false;
      else if (c === ',') expectKey = stack[stack.length - 1] === '{';
    }
    if (rootKind === '{' && stack.length === 0 && keys.size) break;
    if (rootKind === '[' && !firstElement) break;
  }
  if (rootKind === '[')
    return keys.size
      ? `a root array whose first element has the keys: ${list(keys)}`
      : 'a root array of no objects';
  return keys.size ? `top-level keys found: ${list(keys)}` : 'no top-level keys found';
}
