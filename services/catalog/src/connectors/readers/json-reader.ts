import type { Readable } from 'node:stream';

interface Frame {
  kind: 'obj' | 'arr';
  key: string | null;
  index: number;
  expectKey: boolean;
}

/**
 * Index of the quote that closes the string whose content starts at `from`, or -1 when the text
 * ends inside it. Jumps from quote to quote with indexOf (native, fast over long descriptions);
 * a quote preceded by an odd run of backslashes is escaped. The character at from - 1 is the
 * opening quote, so the backwards count always stops.
 */
function closingQuote(text: string, from: number): number {
  let j = from;
  for (;;) {
    j = text.indexOf('"', j);
    if (j < 0) return -1;
    let k = j - 1;
    while (text.charCodeAt(k) === 92) k--;
    if ((j - 1 - k) % 2 === 0) return j;
    j++;
  }
}

/**
 * Streams the records of a JSON feed: every object or array whose dotted path matches `paths`
 * (`^\d+$` = the elements of a root array, `^stock\.\d+$` = the elements of `stock` in the root
 * object) is cut out of the text and handed to the native JSON.parse, one record at a time.
 * Memory is bounded by one record plus one read chunk, whatever the size of the file.
 *
 * Inside a record the scanner only looks at brackets outside strings and jumps over strings with
 * indexOf, so JavaScript touches a few characters per string instead of every one (about 5x faster
 * than a character loop; a token-level parser such as stream-json read 5 MB/s). A record cut by
 * a chunk boundary is kept from its start and scanned on from where the scan stopped; only a
 * string still open at the boundary is rescanned. A truncated or malformed feed throws, which
 * fails the run.
 *
 * `rootStrings`, when given, receives the string values of the root object's keys as the scan
 * passes them (a price list's `currency` beside its `price` array), so a mapper can read the ones
 * that came before a record.
 */
export async function* streamJsonRecords<T = Record<string, unknown>>(
  input: Readable,
  paths: RegExp,
  rootStrings?: Record<string, string>,
): AsyncGenerator<T> {
  input.setEncoding('utf8'); // a StringDecoder: multi-byte characters split across chunks stay whole
  const frames: Frame[] = [];
  // Outside a record: string state for keys (short), character by character.
  let inString = false;
  let escape = false;
  let str = '';
  let seenRoot = false;
  // Inside a record: its text so far is buf[0, pos), depth counts its open brackets.
  let capturing = false;
  let depth = 0;
  let buf = '';
  let pos = 0;
  let records = 0;

  const pathOfNext = () => frames.map((f) => (f.kind === 'obj' ? (f.key ?? '') : String(f.index))).join('.');

  for await (const chunk of input as AsyncIterable<string>) {
    let text: string;
    let i: number;
    if (capturing) {
      text = buf + chunk;
      i = pos;
    } else {
      text = chunk;
      i = 0;
    }
    let recordStart = 0;
    const n = text.length;
    scan: while (i < n) {
      if (capturing) {
        while (i < n) {
          const c = text.charCodeAt(i);
          if (c === 34) {
            const end = closingQuote(text, i + 1);
            if (end < 0) break scan; // the string goes on in the next chunk: resume at its opening quote
            i = end + 1;
            continue;
          }
          i++;
          if (c === 123 || c === 91) depth++;
          else if ((c === 125 || c === 93) && --depth === 0) {
            capturing = false;
            records++;
            let record: T;
            try {
              record = JSON.parse(text.slice(recordStart, i)) as T;
            } catch (err) {
              throw new Error(
                `JSON feed is malformed in record ${records}: ${err instanceof Error ? err.message : String(err)}`,
              );
            }
            yield record;
            continue scan;
          }
        }
        break;
      }
      const c = text.charCodeAt(i);
      if (inString) {
        if (escape) {
          escape = false;
          str += text[i];
        } else if (c === 92) escape = true;
        else if (c === 34) {
          inString = false;
          const top = frames[frames.length - 1];
          if (top?.kind === 'obj' && top.expectKey) top.key = str;
          else if (rootStrings && frames.length === 1 && top?.kind === 'obj' && top.key !== null)
            rootStrings[top.key] = str;
        } else str += text[i];
        i++;
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
            recordStart = i;
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
      i++;
    }
    if (capturing) {
      // Keep the record's text so far; the scan resumes where it stopped.
      buf = text.slice(recordStart);
      pos = i - recordStart;
    } else {
      buf = '';
      pos = 0;
    }
  }
  if (capturing || frames.length > 0 || inString)
    throw new Error('JSON feed ended inside a value (truncated file?)');
  if (!seenRoot) throw new Error('JSON feed is empty');
}
