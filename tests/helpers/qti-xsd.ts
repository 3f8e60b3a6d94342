// 1EdTech's QTI 3.0 schemas for the export's test, read from tests/fixtures/qti-xsd/ where
// scripts/vendor-qti-xsd.js puts them (not committed: see the README there). Suites that need
// them are skipped visibly when they are missing, unless REQUIRE_QTI_XSD=1.
import fs from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

export const QTI_XSD_DIR = process.env.QTI_XSD_DIR || path.resolve(__dirname, '..', 'fixtures', 'qti-xsd');

/** The Assessment, Section and Item schema: the full one, or a 1EdTech profile of it. */
const ASI_CANDIDATES = [
  'imsqti_asiv3p0p1_v1p0.xsd',
  'imsqti_asiv3p0_v1p0.xsd',
  'imsqti_asiv3p0_sbacv1p0_v1p0.xsd',
];
const MANIFEST_SCHEMA = 'imsqtiv3p0_imscpv1p2_v1p0.xsd';

const asiSchema = () => ASI_CANDIDATES.find((name) => fs.existsSync(path.join(QTI_XSD_DIR, name)));

export function describeWithQtiXsd(name: string, fn: () => void): void {
  if (asiSchema() && fs.existsSync(path.join(QTI_XSD_DIR, MANIFEST_SCHEMA))) {
    describe(name, fn);
    return;
  }
  const missing = `no QTI 3.0 XSD in ${QTI_XSD_DIR}: run scripts/vendor-qti-xsd.js (tests/fixtures/qti-xsd/README.md)`;
  if (process.env.REQUIRE_QTI_XSD === '1') throw new Error(`REQUIRE_QTI_XSD=1 but ${missing}`);
  describe.skip(`${name}: skipped: ${missing}`, fn);
}

export interface XsdResult {
  valid: boolean;
  errors: string[];
  /** The schema it was checked against. */
  schema: string;
}

/** One document checked against the ASI schema (items, tests) or the package's (the manifest). */
export async function validateQti(
  fileName: string,
  xml: string,
  against: 'asi' | 'manifest',
): Promise<XsdResult> {
  const schema = against === 'asi' ? asiSchema()! : MANIFEST_SCHEMA;
  const files = fs.readdirSync(QTI_XSD_DIR).filter((name) => name.endsWith('.xsd'));
  const read = (name: string) => ({
    fileName: name,
    contents: fs.readFileSync(path.join(QTI_XSD_DIR, name), 'utf8'),
  });
  const result = await validateXML({
    xml: [{ fileName, contents: xml }],
    schema: [read(schema)],
    preload: files.filter((name) => name !== schema).map(read),
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage), schema };
}
