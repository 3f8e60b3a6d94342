import { randomBytes } from 'node:crypto';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError, invalidInput } from '../errors';

/**
 * Files sent to the service, whatever they are for: an upload link (get_quiz_links) or the
 * dashboard's form takes the bytes, this stores them for the owner under a random id, and the
 * tool or page that uses them (import_questions, images) reads them back by that id. Stored in
 * the database so that any instance can read what another took; purged once expired
 * (purge-expired.ts).
 */

/** The largest file an upload takes: a big Moodle XML bank or a QTI package with its images. */
export const UPLOAD_BYTES_MAX = 10 * 1024 * 1024;
/** How long an uploaded file is kept: long enough to preview it, then import it. */
export const UPLOAD_LIFETIME_MS = 24 * 3_600_000;
/** The type a file sent without one is stored as. */
export const UNKNOWN_CONTENT_TYPE = 'application/octet-stream';

const ID_PREFIX = 'upl_';
const ID_SHAPE = /^upl_[A-Za-z0-9_-]{24}$/;
// type/subtype, without parameters (a charset is read from the bytes, not trusted from a header).
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

export interface StoredUpload {
  upload_id: string;
  content_type: string;
  size: number;
  expires_at: string;
}

export interface UploadedFile {
  contentType: string;
  filename: string | null;
  bytes: Uint8Array;
}

/** A Content-Type header as stored: its media type in lower case, else the unknown type. */
export function mediaTypeOf(header: string | undefined | null): string {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : UNKNOWN_CONTENT_TYPE;
}

/** A file name as stored: its last path segment, printable, at most 200 characters. */
function safeFilename(name: string | null): string | null {
  if (!name) return null;
  // eslint-disable-next-line no-control-regex
  const last = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return last ? last.slice(0, 200) : null;
}

export function uploadTooLarge(size?: number): DomainError {
  return invalidInput(
    [
      {
        field: 'file',
        message: `is too large: at most ${UPLOAD_BYTES_MAX} bytes (10 MB)${size === undefined ? '' : `, got ${size}`}: split the bank into smaller files`,
      },
    ],
    'Nothing was stored',
  );
}

/** Stores the owner's file; it can be read back by its id until it expires. */
export async function storeUpload(
  deps: Pick<DomainDeps, 'repos' | 'now'>,
  ownerId: string,
  file: UploadedFile,
): Promise<StoredUpload> {
  if (file.bytes.byteLength === 0) {
    throw invalidInput([{ field: 'file', message: 'is empty: send the file itself' }], 'Nothing was stored');
  }
  if (file.bytes.byteLength > UPLOAD_BYTES_MAX) throw uploadTooLarge(file.bytes.byteLength);
  const id = ID_PREFIX + randomBytes(18).toString('base64url');
  const expiresAt = new Date(nowOf(deps) + UPLOAD_LIFETIME_MS);
  const contentType = mediaTypeOf(file.contentType);
  const stored = await deps.repos.uploads.create({
    id,
    ownerId,
    contentType,
    filename: safeFilename(file.filename),
    bytes: file.bytes,
    expiresAt,
  });
  if (!stored) throw new DomainError('user_not_found', 'The account this upload was for no longer exists.');
  return {
    upload_id: id,
    content_type: contentType,
    size: file.bytes.byteLength,
    expires_at: expiresAt.toISOString(),
  };
}

/** The owner's upload by its id; another owner's, an expired one or a mistyped id is "not found". */
export async function readUpload(
  deps: Pick<DomainDeps, 'repos' | 'now'>,
  ownerId: string,
  uploadId: string,
  field = 'upload_id',
): Promise<UploadedFile & { size: number }> {
  const row = ID_SHAPE.test(uploadId)
    ? await deps.repos.uploads.byOwner(ownerId, uploadId, new Date(nowOf(deps)))
    : null;
  if (!row) {
    throw invalidInput(
      [
        {
          field,
          message: `no upload "${uploadId.slice(0, 40)}" of yours: uploads are kept ${UPLOAD_LIFETIME_MS / 3_600_000} hours; send the file again through a new upload link (get_quiz_links)`,
        },
      ],
      'Nothing was imported',
    );
  }
  return { contentType: row.contentType, filename: row.filename, bytes: row.bytes, size: row.size };
}
