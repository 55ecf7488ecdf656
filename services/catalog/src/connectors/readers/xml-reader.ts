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
  const parser = sax.createStream(true, { trim: true });
  const ready: XmlObject[] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  // Stack of open elements inside the current record: [name, object, text].
  const stack: Array<{ name: string; obj: XmlObject; text: string; hasChildren: boolean }> = [];
  let depthInRecord = -1;
  let recordName = '';

  const notify = () => {
    wake?.();
    wake = undefined;
  };
  parser.on('opentag', (node) => {
    if (depthInRecord < 0 && !recordTags.includes(node.name)) return;
    if (depthInRecord < 0) recordName = node.name;
    depthInRecord++;
    const obj: XmlObject = {};
    for (const [k, v] of Object.entries(node.attributes)) obj[k] = String(v);
    const parent = stack[stack.length - 1];
    if (parent) parent.hasChildren = true;
    stack.push({ name: node.name, obj, text: '', hasChildren: Object.keys(obj).length > 0 });
  });
  parser.on('text', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on('cdata', (t) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  });
  parser.on('closetag', () => {
    if (depthInRecord < 0) return;
    const done = stack.pop();
    depthInRecord--;
    if (!done) return;
    const value: XmlValue = done.hasChildren ? done.obj : done.text;
    const parent = stack[stack.length - 1];
    if (!parent) {
      const record: XmlObject = typeof value === 'string' ? { value } : value;
      record['#tag'] = recordName;
      ready.push(record);
      notify();
      return;
    }
    const existing = parent.obj[done.name];
    if (existing === undefined) parent.obj[done.name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else parent.obj[done.name] = [existing, value];
  });
  parser.on('error', (err) => {
    failure = err;
    notify();
  });
  parser.on('end', () => {
    ended = true;
    notify();
  });
  input.on('error', (err) => {
    failure = err;
    notify();
  });
  input.pipe(parser);

  while (true) {
    if (ready.length > 0) {
      // Back-pressure: pause the source while the consumer works through parsed records.
      if (ready.length > 500) input.pause();
      yield ready.shift() as XmlObject;
      if (ready.length < 100 && input.isPaused()) input.resume();
      continue;
    }
    if (failure) throw failure;
    if (ended) return;
    if (input.isPaused()) input.resume();
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}

/** One or many children as an array (XML has no arrays of one). */
export function asArray<T>(v: T | T[] | undefined): T[] {
  if (v === undefined || v === null || (v as unknown) === '') return [];
  return Array.isArray(v) ? v : [v];
}
