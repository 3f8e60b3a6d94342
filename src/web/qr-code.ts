import { crc32, deflateSync } from 'node:zlib';
import { encode, renderSVG } from 'uqr';

// `uqr` (unjs): a maintained QR encoder with no dependencies. `qrcode` pulled in yargs and
// its tree for a command line we never run. uqr draws the SVG; the PNG is written below from
// the same matrix. Level M survives a smudged printout; a border of 2 modules is enough
// white for phone scanners.
const OPTIONS = { ecc: 'M', border: 2 } as const;

/** A link as an SVG QR code, black on white whatever the page's theme (scanners need the contrast). */
export async function qrSvg(url: string): Promise<string> {
  return renderSVG(url, { ...OPTIONS, whiteColor: '#ffffff', blackColor: '#000000' });
}

/** A link as a PNG QR code large enough to print on a slide or a handout. */
export async function qrPng(url: string, width = 512): Promise<Buffer> {
  const { data } = encode(url, OPTIONS);
  return grayscalePng(data, Math.max(1, Math.floor(width / data.length)));
}

/** A PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, body: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit grayscale PNG of the matrix (true = dark), each module `scale` pixels square. */
function grayscalePng(matrix: boolean[][], scale: number): Buffer {
  const size = matrix.length * scale;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // grayscale; compression, filter and interlace stay 0
  const rows = Buffer.alloc(size * (size + 1), 0xff);
  for (let y = 0; y < size; y += 1) {
    const start = y * (size + 1);
    rows[start] = 0; // filter: none
    const row = matrix[Math.floor(y / scale)]!;
    for (let x = 0; x < size; x += 1) if (row[Math.floor(x / scale)]) rows[start + 1 + x] = 0;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
