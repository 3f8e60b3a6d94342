// The hostile files the import refuses, as the MCP tests send them (tests/mcp/import-questions,
// import-qti-upload, upload-link), gathered for the tests that send them through another door.
import { writeZip, ZIP_LIMITS } from '../../src/domain/import/zip';
import { zipFixtureFolder } from './qti-packages';

export const XXE = `<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<quiz><question type="truefalse"><questiontext><text>&xxe;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>`;

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<quiz><question type="truefalse"><questiontext><text>&lol2;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>`;

export const GIFT_UNCLOSED = 'Q1 {=a ~b}\n\nQ2 is {=open ~never closed\n';

const MANIFEST = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources><resource identifier="i" type="imsqti_item_xmlv3p0" href="aa/item.xml"/></resources></manifest>`;

/** A package whose one item inflates far past the reader's bound. */
export const zipBomb = () =>
  writeZip([
    { path: 'imsmanifest.xml', bytes: MANIFEST },
    { path: 'aa/item.xml', bytes: Buffer.alloc(ZIP_LIMITS.entryBytesMax * 4) },
  ]);

/** A package naming a path out of itself (written with a name of the same length, then changed). */
export async function zipTraversal(): Promise<Buffer> {
  const zip = await writeZip([
    { path: 'imsmanifest.xml', bytes: MANIFEST },
    { path: 'aa/item.xml', bytes: '<x/>' },
  ]);
  return Buffer.from(zip.toString('latin1').replaceAll('aa/item.xml', '../item.xml'), 'latin1');
}

/** A real package with its end cut off. */
export async function zipTruncated(): Promise<Buffer> {
  const whole = await zipFixtureFolder('qti21-package');
  return whole.subarray(0, whole.length - 200);
}
