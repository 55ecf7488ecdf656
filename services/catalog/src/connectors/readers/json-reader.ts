import type { Readable } from 'node:stream';

interface Frame {
  kind: 'obj' | 'arr';
  key: string | null;
  index: number;
  expectKey: boolean;
}

/**
 * Streams the records of a JSON feed: every object or array whose dotted path matches `paths`
 * (`^\d+$` = the elements of a root array, `^stock\.\d+$` = the elements of `stock` in the root
 * object) is cut out of the byte stream and handed to the native JSON.parse, one record at a
 * time. Memory is bounded by one record plus one read chunk, whatever the size of the file.
 *
 * Why not a token-level parser (stream-json): it assembles every value from JS tokens and reads
 * about 5 MB/s here; a 200 MB supplier feed would take 40 s just to parse. This scanner only
 * tracks nesting and strings in JS and leaves values to the native parser (an order of
 * magnitude faster). A truncated or malformed feed throws, which fails the run.
 */
export async function* streamJsonRecords<T = Record<string, any>>(
  input: Readable,
  paths: RegExp,
): AsyncGenerator<T> {
  input.setEncoding('utf8'); // a StringDecoder: multi-byte characters split across chunks stay whole
  const frames: Frame[] = [];
  // Outside a record: string state for keys.
  let inString = false;
  let escape = false;
  let str = '';
  // Inside a record.
  let capturing = false;
  let depth = 0;
  let cString = false;
  let cEscape = false;
  let carry = '';
  let seenRoot = false;

  const pathOfNext = () => frames.map((f) => (f.kind === 'obj' ? (f.key ?? '') : String(f.index))).join('.');

  for await (const chunk of input as AsyncIterable<string>) {
    let start = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (capturing) {
        if (cString) {
          if (cEscape) cEscape = false;
          else if (c === 92)
            cEscape = true; // backslash
          else if (c === 34) cString = false; // quote
          continue;
        }
        if (c === 34) cString = true;
        else if (c === 123 || c === 91) depth++;
        else if (c === 125 || c === 93) {
          depth--;
          if (depth === 0) {
            const text = carry + chunk.slice(start, i + 1);
            carry = '';
            capturing = false;
            yield JSON.parse(text) as T;
          }
        }
        continue;
      }
      if (inString) {
        if (escape) {
          escape = false;
          str += chunk[i];
        } else if (c === 92) escape = true;
        else if (c === 34) {
          inString = false;
          const top = frames[frames.length - 1];
          if (top?.kind === 'obj' && top.expectKey) top.key = str;
        } else str += chunk[i];
        continue;
      }
      switch (c) {
        case 34: // a key, or a scalar string value that is never a record
          inString = true;
          str = '';
          break;
        case 123: // {
        case 91: {
          // [
          if (frames.length === 0) {
            if (seenRoot) throw new Error('JSON feed has more than one root value');
            seenRoot = true;
          }
          if (frames.length > 0 && paths.test(pathOfNext())) {
            capturing = true;
            depth = 1;
            start = i;
            carry = '';
          } else frames.push({ kind: c === 123 ? 'obj' : 'arr', key: null, index: 0, expectKey: c === 123 });
          break;
        }
        case 125: // }
        case 93: // ]
          if (!frames.pop()) throw new Error('JSON feed is malformed: unbalanced brackets');
          break;
        case 58: {
          // :
          const top = frames[frames.length - 1];
          if (top) top.expectKey = false;
          break;
        }
        case 44: {
          // ,
          const top = frames[frames.length - 1];
          if (top?.kind === 'obj') {
            top.expectKey = true;
            top.key = null;
          } else if (top) top.index++;
          break;
        }
        default:
        // whitespace and scalar characters outside records
      }
    }
    if (capturing) carry += chunk.slice(start);
  }
  if (capturing || frames.length > 0 || inString)
    throw new Error('JSON feed ended inside a value (truncated file?)');
  if (!seenRoot) throw new Error('JSON feed is empty');
}
