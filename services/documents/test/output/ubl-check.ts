import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Reads values out of a UBL document with libxml2's xmllint XPath, for tests that check what a
 * document says. Whether it is a valid e-invoice is einvoice-validation.ts's job.
 */

/** Local-name XPath steps: p('cac:TaxTotal/cbc:TaxAmount') -> *[local-name()='TaxTotal']/... */
const p = (path: string) =>
  path
    .split('/')
    .map((step) => {
      const [name, predicate] = step.split('[');
      const local = name!.includes(':') ? name!.split(':')[1] : name;
      return local === '' ? '' : `*[local-name()='${local}']${predicate ? `[${predicate}` : ''}`;
    })
    .join('/');

export class UblDoc {
  constructor(readonly xml: string) {}

  /** String value of an XPath under the root, e.g. value('cac:LegalMonetaryTotal/cbc:PayableAmount'). */
  value(path: string): string {
    return this.eval(`string(/*/${p(path)})`);
  }
  count(path: string): number {
    return Number(this.eval(`count(/*/${p(path)})`));
  }
  values(path: string): string[] {
    const n = this.count(path);
    return Array.from({ length: n }, (_, i) => this.eval(`string((/*/${p(path)})[${i + 1}])`));
  }
  eval(expr: string): string {
    return withFile(this.xml, (file) =>
      execFileSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' }).trim(),
    );
  }
}

function withFile<T>(xml: string, fn: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'aplt-ubl-'));
  const file = join(dir, 'doc.xml');
  writeFileSync(file, xml);
  try {
    return fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
