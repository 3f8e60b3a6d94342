import { isDomainError } from '../errors';
import { assemble, readBank, type ImportedQuestion } from './assemble';
import type { ImportFormat, SourceBank } from './bank';
import { readPackageBank } from './qti';
import { isZip, uploadedBankText } from './uploaded-bank';
import type { UploadedFile } from '../uploads/uploads';

/**
 * The pure part of reading a bank: bytes or text in, the bank and our questions out. It runs in
 * a worker thread (read-worker.ts), so it holds nothing but plain data, and storage stays on the
 * serving thread.
 */

/** What a bank is read from: pasted text, or a file (uploaded, or sent to the dashboard's form). */
export type BankSource = { text: string } | { file: Pick<UploadedFile, 'bytes' | 'contentType'> };

export interface ReadJob {
  source: BankSource;
  format?: ImportFormat | undefined;
}

export interface ReadBank {
  bank: SourceBank;
  scale: number;
  questions: ImportedQuestion[];
}

/** A failure as it crosses the thread: a refusal with its issues, or what a reader threw. */
export type ReadFailure =
  | { kind: 'domain'; code: string; message: string; issues: unknown[] }
  | { kind: 'thrown'; name: string; message: string; stack: string };

export type ReadAnswer = { ok: true; read: ReadBank } | { ok: false; failure: ReadFailure };

/**
 * A file's bank: a QTI package (a zip), or text in `format` (detected when omitted). Readers only:
 * the doors read a bank through previewSource or checkSource, which answer whatever they throw.
 */
export async function fileBank(
  file: Pick<UploadedFile, 'bytes' | 'contentType'>,
  format?: ImportFormat,
): Promise<SourceBank> {
  if (isZip(file)) return readPackageBank(file.bytes, 'upload_id');
  return readBank(uploadedBankText(file), format, 'upload_id');
}

export async function runReadJob(job: ReadJob): Promise<ReadAnswer> {
  try {
    const bank =
      'text' in job.source
        ? readBank(job.source.text, job.format, 'text')
        : await fileBank(job.source.file, job.format);
    return { ok: true, read: { bank, ...assemble(bank) } };
  } catch (error) {
    if (isDomainError(error)) {
      return {
        ok: false,
        failure: { kind: 'domain', code: error.code, message: error.message, issues: error.issues },
      };
    }
    const thrown = error instanceof Error ? error : new Error(typeof error);
    return {
      ok: false,
      failure: { kind: 'thrown', name: thrown.name, message: thrown.message, stack: thrown.stack ?? '' },
    };
  }
}
