import { invalidInput } from '../errors';
import type { UploadedFile } from '../uploads/uploads';

/**
 * An uploaded file as the text a reader takes: UTF-8 (with or without its byte-order mark) or
 * UTF-16 with one. A zip package is not text (import-questions.ts reads it as a QTI package
 * before this), and bytes that are not text are refused rather than read as mangled questions.
 */

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed']);

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);

/** Whether the file is a zip archive, by its first bytes or the type it was sent with. */
export function isZip(file: Pick<UploadedFile, 'bytes' | 'contentType'>): boolean {
  return startsWith(file.bytes, ZIP_SIGNATURE) || ZIP_TYPES.has(file.contentType);
}

const refuse = (message: string) => invalidInput([{ field: 'upload_id', message }], 'Nothing was imported');

export function uploadedBankText(file: Pick<UploadedFile, 'bytes' | 'contentType'>): string {
  if (isZip(file)) {
    throw refuse(
      'is a zip package: packages (QTI) cannot be imported yet: upload the questions as Moodle XML, GIFT, Aiken or our CSV',
    );
  }
  const { bytes } = file;
  let encoding: 'utf-8' | 'utf-16le' | 'utf-16be' = 'utf-8';
  if (startsWith(bytes, [0xff, 0xfe])) encoding = 'utf-16le';
  else if (startsWith(bytes, [0xfe, 0xff])) encoding = 'utf-16be';
  let text: string;
  try {
    // The decoder drops a byte-order mark itself.
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refuse(
      'is not text in UTF-8 (or UTF-16 with a byte-order mark): save the file as UTF-8 and upload it again',
    );
  }
  if (text.includes('\u0000')) {
    throw refuse('holds binary data, not a question bank: upload a Moodle XML, GIFT, Aiken or CSV file');
  }
  return text;
}
