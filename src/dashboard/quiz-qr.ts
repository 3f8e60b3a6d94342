import QRCode from 'qrcode';

// `qrcode` (node-qrcode): the most used QR encoder on npm, maintained, pure JavaScript (no native
// build, no canvas), and it writes both SVG and PNG itself. Level M survives a smudged printout.
const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** The public link as an SVG QR code, black on white whatever the page's theme (scanners need the contrast). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: 'svg' });
}

/** The public link as a PNG QR code large enough to print on a slide or a handout. */
export function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: 'png', width: 512 });
}
