import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * Validates UBL the way a Peppol access point does, against the official artefacts copied into
 * test/einvoice-reference (see its SOURCES.md): the OASIS UBL 2.1 XSD with libxml2's xmllint,
 * then the CEN EN 16931 and the Peppol BIS Billing 3.0 Schematron with SaxonJS (no Java).
 *
 * A Schematron file runs as XSLT: SchXslt2 transpiles the .sch to XSLT and xslt3 compiles that
 * to SaxonJS's SEF (about a minute each on a busy machine), so the SEF is cached under
 * node_modules/.cache/einvoice-sef, keyed by a hash of the inputs and the SaxonJS version.
 */
const REFERENCE = resolve(import.meta.dirname, '../einvoice-reference');
const XSD_DIR = join(REFERENCE, 'ubl-2.1-xsd/maindoc');
const TRANSPILER = join(REFERENCE, 'schematron/schxslt2-transpile.xsl');
export const SCHEMATRONS = {
  cen: join(REFERENCE, 'schematron/CEN-EN16931-UBL.sch'),
  peppol: join(REFERENCE, 'schematron/PEPPOL-EN16931-UBL.sch'),
} as const;
type RuleSet = keyof typeof SCHEMATRONS;

const require = createRequire(import.meta.url);
const XSLT3 = require.resolve('xslt3/xslt3.js');
const SAXON_VERSION: string = require('saxon-js/package.json').version;
const CACHE_DIR = resolve(import.meta.dirname, '../../node_modules/.cache/einvoice-sef');
const SVRL = 'http://purl.oclc.org/dsdl/svrl';

/** The part of SaxonJS's API used here (the package ships no types). */
interface SaxonJs {
  transform(
    options: { stylesheetInternal: unknown; sourceText: string; destination: 'document' },
    mode: 'async',
  ): Promise<{ principalResult: unknown }>;
  XPath: {
    evaluate(
      xpath: string,
      context: unknown,
      options: { namespaceContext: Record<string, string>; resultForm: 'array' },
    ): unknown;
  };
}
const SaxonJS = require('saxon-js') as SaxonJs;

export interface Finding {
  /** Rule id, e.g. BR-CO-10 or PEPPOL-EN16931-R120; "XSD" for a schema error. */
  id: string;
  flag: string;
  location: string;
  text: string;
}

export interface EinvoiceReport {
  /** Errors: xmllint's schema errors and every failed assertion flagged fatal or error. */
  errors: Finding[];
  warnings: Finding[];
  /** How many rules fired per rule set: a Schematron that fired nothing checked nothing. */
  fired: Record<RuleSet, number>;
}

/** XSD validation with the official UBL 2.1 main document schema of the document's root. */
export function validateXsd(xml: string): { ok: boolean; output: string } {
  const root = /<(?:\w+:)?CreditNote[\s>]/.test(xml.slice(0, 500)) ? 'CreditNote' : 'Invoice';
  return withFile(xml, (file) => {
    const run = spawnSync('xmllint', ['--noout', '--schema', join(XSD_DIR, `UBL-${root}-2.1.xsd`), file], {
      encoding: 'utf8',
    });
    if (run.error) throw run.error;
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  });
}

/** All three checks; ok when none reports an error (warnings are reported, not failed). */
export async function validateEinvoice(xml: string): Promise<EinvoiceReport & { ok: boolean }> {
  const xsd = validateXsd(xml);
  const errors: Finding[] = xsd.ok
    ? []
    : xsd.output
        .split('\n')
        .filter((l) => l.trim() && !l.endsWith(' fails to validate'))
        .map((text) => ({ id: 'XSD', flag: 'fatal', location: '', text }));
  const warnings: Finding[] = [];
  const fired = { cen: 0, peppol: 0 };
  for (const set of Object.keys(SCHEMATRONS) as RuleSet[]) {
    const report = await runSchematron(set, xml);
    fired[set] = report.fired;
    for (const f of report.failed) (['fatal', 'error'].includes(f.flag) ? errors : warnings).push(f);
  }
  return { ok: errors.length === 0, errors, warnings, fired };
}

/** One line per error, for a readable assertion message. */
export const describeErrors = (report: EinvoiceReport) =>
  report.errors.map((e) => `${e.id} ${e.text} ${e.location}`.trim()).join('\n');

async function runSchematron(set: RuleSet, xml: string): Promise<{ failed: Finding[]; fired: number }> {
  const sef = await compiledSchematron(set);
  const { principalResult } = await SaxonJS.transform(
    { stylesheetInternal: sef, sourceText: xml, destination: 'document' },
    'async',
  );
  const failed = SaxonJS.XPath.evaluate(
    `//svrl:failed-assert ! map { 'id': string(@id), 'flag': string(@flag), 'location': string(@location),
       'text': normalize-space(svrl:text) }`,
    principalResult,
    { namespaceContext: { svrl: SVRL }, resultForm: 'array' },
  ) as Finding[];
  const fired = SaxonJS.XPath.evaluate('count(//svrl:fired-rule)', principalResult, {
    namespaceContext: { svrl: SVRL },
    resultForm: 'array',
  }) as number[];
  return { failed, fired: Number(fired[0] ?? 0) };
}

const compiled = new Map<RuleSet, Promise<unknown>>();
const execFileAsync = promisify(execFile);

/**
 * The rule set's compiled stylesheet (SEF, parsed), from the cache or compiled now. A compile
 * writes to a temporary file and renames it into place, so parallel test files that both miss
 * the cache both compile but never read a half-written file.
 */
export function compiledSchematron(set: RuleSet): Promise<unknown> {
  let pending = compiled.get(set);
  if (!pending) {
    pending = compile(set).then((file) => JSON.parse(readFileSync(file, 'utf8')));
    compiled.set(set, pending);
  }
  return pending;
}

/**
 * The SchXslt2 build in the reference folder declares the rule templates' "patterns already
 * fired on this node" parameter as a tunnel parameter. A tunnel parameter travels on through
 * xsl:apply-templates, so once a rule of a pattern fired on the root element, every rule of that
 * pattern was suppressed on all descendants: most of EN 16931 (BR-CO-10 ... BR-CO-16, every line
 * rule) never ran and broken totals passed. Released SchXslt2 declares it as an ordinary
 * parameter that next-match hands on explicitly; this patch does the same to our copy, and
 * refuses to compile if the transpiler no longer has the text it patches.
 */
const PATTERN_PARAM = 'name="Q{{http://dmaus.name/ns/2023/schxslt}}pattern"';
const STRINGS = 'as="Q{{http://www.w3.org/2001/XMLSchema}}string*"';
function patchedTranspiler(): string {
  const source = readFileSync(TRANSPILER, 'utf8');
  const tunnelled = `${PATTERN_PARAM} ${STRINGS} tunnel="yes"`;
  const suppressedNextMatch = '</svrl:suppressed-rule>\n          <alias:next-match/>';
  if (source.split(tunnelled).length !== 3 || !source.includes(suppressedNextMatch)) {
    throw new Error(
      `${TRANSPILER} changed: review the SchXslt2 tunnel-parameter patch in einvoice-validation.ts`,
    );
  }
  return source
    .split(tunnelled)
    .join(`${PATTERN_PARAM} ${STRINGS}`)
    .replace(
      suppressedNextMatch,
      `</svrl:suppressed-rule><alias:next-match><alias:with-param ${PATTERN_PARAM} ${STRINGS} select="$Q{{http://dmaus.name/ns/2023/schxslt}}pattern"/></alias:next-match>`,
    );
}

async function compile(set: RuleSet): Promise<string> {
  const transpiler = patchedTranspiler();
  const hash = createHash('sha256')
    .update(transpiler)
    .update(readFileSync(SCHEMATRONS[set]))
    .update(SAXON_VERSION)
    .digest('hex')
    .slice(0, 16);
  const target = join(CACHE_DIR, `${set}-${hash}.sef.json`);
  if (existsSync(target)) return target;
  mkdirSync(CACHE_DIR, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), `einvoice-${set}-`));
  try {
    const xsl = join(work, `${set}.xsl`);
    const sef = join(work, `${set}.sef.json`);
    const transpilerFile = join(work, 'transpile.xsl');
    writeFileSync(transpilerFile, transpiler);
    await execFileAsync(process.execPath, [
      XSLT3,
      `-xsl:${transpilerFile}`,
      `-s:${SCHEMATRONS[set]}`,
      `-o:${xsl}`,
    ]);
    await execFileAsync(process.execPath, [XSLT3, `-xsl:${xsl}`, `-export:${sef}`, '-nogo']);
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, readFileSync(sef));
    renameSync(partial, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
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
