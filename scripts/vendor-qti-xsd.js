#!/usr/bin/env node
// Copies 1EdTech's QTI 3.0 XSDs (and the W3C ones they import) from a folder you downloaded
// them to into tests/fixtures/qti-xsd/, flat, with every schemaLocation pointing at the copy
// beside it, so the export's schema test runs without the network. The files are not
// committed: their notice reserves 1EdTech's rights (tests/fixtures/qti-xsd/README.md).
//
//   node scripts/vendor-qti-xsd.js FOLDER
//
// MathML is replaced by a stub that takes any content: the export writes none, and libxml2
// (xmllint) cannot compile MathML 3's content models.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const source = process.argv[2];
if (!source || !fs.existsSync(source)) {
  console.error('usage: node scripts/vendor-qti-xsd.js FOLDER (a folder holding the QTI 3.0 XSD files)');
  process.exit(2);
}
const target = path.join(__dirname, '..', 'tests', 'fixtures', 'qti-xsd');
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.name.endsWith('.xsd') ? [full] : [];
  });
let copied = 0;
for (const file of walk(source)) {
  const name = path.basename(file);
  if (name.startsWith('mathml3')) continue;
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/schemaLocation="(?:[^"]*\/)?([A-Za-z0-9_.-]+\.xsd)"/g, (whole, base) =>
      /^https?:/.test(whole.slice(16)) && !/imsglobal|1edtech/.test(whole)
        ? whole
        : `schemaLocation="${base}"`,
    );
  fs.writeFileSync(path.join(target, name), text);
  copied += 1;
}
fs.writeFileSync(
  path.join(target, 'mathml3.xsd'),
  `<?xml version="1.0" encoding="UTF-8"?>
<!-- A stand-in for MathML 3 (scripts/vendor-qti-xsd.js): any content under <math>. -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/1998/Math/MathML" elementFormDefault="qualified">
  <xs:element name="math">
    <xs:complexType mixed="true">
      <xs:sequence><xs:any processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      <xs:anyAttribute processContents="lax"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
`,
);
console.log(`vendor-qti-xsd: ${copied} schema files copied to ${path.relative(process.cwd(), target)}`);
