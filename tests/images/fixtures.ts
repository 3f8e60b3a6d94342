import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** Pictures made on the spot, so no binary file is committed. */
export const solidPng = (width: number, height: number, colour = '#c33') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

export const solidJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#36c' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Private Person', Artist: 'Private Person' } })
    .toBuffer();

/** A valid 1 × 1 PNG whose header then declares `width` × `height` (the CRC is left as it was). */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solidPng(1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

/** Random noise, so a PNG of it cannot compress: about side² × 3 bytes. */
export async function noisePng(side: number): Promise<Buffer> {
  const raw = randomBytes(side * side * 3);
  return sharp(raw, { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export const HTML_NAMED_PNG = Buffer.from(
  '<!doctype html><html><body><script>alert(1)</script></body></html>',
);
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
