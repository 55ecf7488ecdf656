import type { Readable } from 'node:stream';
import sax from 'sax';

export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

/**
 * SAX-parses an XML feed (Makito style) and yields every element named in `recordTags` (its name
 * under `#tag`) as a plain
 * object: child elements become properties (repeated ones an array), attributes properties too,
 * a text-only element its string. Only the current record is held in memory.
 */
export async function* streamXmlRecords(input: Readable, recordTags: string[]): AsyncGenerator<XmlObject> {
  const parser = sax.parser(true, { trim: true });
  const ready: XmlObject[] = [];
  // Open elements inside the current record.
  const stack: Array<{ name: string; obj: XmlObject; text: string; hasChildren: boolean }> = [];
  let recordName = '';

  parser.onopentag = (node) => {
    if (stack.length === 0 && !recordTags.includes(node.name)) return;
    if (stack.length === 0) recordName = node.name;
    const obj: XmlObject = {};
    for (const [k, v] of Object.entries(node.attributes)) obj[k] = String(v);
    const parent = stack[stack.length - 1];
    if (parent) parent.hasChildren = true;
    stack.push({ name: node.name, obj, text: '', hasChildren: Object.keys(obj).length > 0 });
  };
  parser.ontext = (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = () => {
    const done = stack.pop();
    if (!done) return;
    const value: XmlValue = done.hasChildren ? done.obj : done.text;
    const parent = stack[stack.length - 1];
    if (!parent) {
      const record: XmlObject = typeof value === 'string' ? { value } : value;
      record['#tag'] = recordName;
      ready.push(record);
      return;
    }
    const existing = parent.obj[done.name];
    if (existing === undefined) parent.obj[done.name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else parent.obj[done.name] = [existing, value];
  };
  parser.onerror = (err) => {
    throw err;
  };

  // Pull one chunk, hand over the records it completed, then pull the next: the consumer's
  // pace is the reader's pace, so memory holds one chunk's records at most.
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    parser.write(chunk);
    while (ready.length > 0) yield ready.shift() as XmlObject;
  }
  parser.close();
  while (ready.length > 0) yield ready.shift() as XmlObject;
}

/** One or many children as an array (XML has no arrays of one). */
export function asArray<T>(v: T | T[] | undefined): T[] {
  if (v === undefined || v === null || (v as unknown) === '') return [];
  return Array.isArray(v) ? v : [v];
}
