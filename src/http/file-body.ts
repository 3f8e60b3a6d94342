import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import type { Request } from 'express';

/**
 * One file from a request body, bounded: `multipart/form-data` with the file in field `field`
 * (read by @fastify/busboy, which streams and stops keeping a part past its limit), or the raw bytes
 * with their own Content-Type. A body over the limit is read to its end and dropped, so the
 * caller can answer 413 on a connection still usable; a declared length over it is refused
 * before a byte is read.
 */
export interface FileBody {
  contentType: string;
  filename: string | null;
  bytes: Uint8Array;
  /** The multipart form's other fields (a dashboard form's `_csrf`, its choices). */
  fields: Record<string, string>;
}

export type FileBodyResult =
  | { ok: true; file: FileBody }
  | {
      ok: false;
      reason: 'too_large' | 'no_file' | 'malformed';
      detail: string;
      /** A multipart form's other fields when it held no file (a form that sent text instead). */
      fields?: Record<string, string>;
    };

export interface FileBodyOptions {
  /** The file's field (multipart); `file` unless told. */
  field?: string;
  /** The most a form's other field holds; a longer one is refused as too large, not cut short. */
  fieldBytesMax?: number;
}

// A form's own fields and the multipart framing, beside the file itself.
const FORM_OVERHEAD_BYTES = 64 * 1024;
const FIELDS_MAX = 20;

function tooLarge(maxBytes: number): FileBodyResult {
  return {
    ok: false,
    reason: 'too_large',
    detail: `The file is larger than ${maxBytes} bytes, the most an upload takes; nothing was stored.`,
  };
}

/** Reads the rest of the body and drops it; resolves when it has ended or the client has gone. */
function drain(req: Request): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded) return resolve();
    req
      .on('end', resolve)
      .on('close', resolve)
      .on('error', () => resolve());
    req.resume();
  });
}

export async function readFileBody(
  req: Request,
  maxBytes: number,
  options: FileBodyOptions = {},
): Promise<FileBodyResult> {
  const { field = 'file', fieldBytesMax = 8 * 1024 } = options;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) {
    await drain(req);
    return tooLarge(maxBytes);
  }
  const type = req.headers['content-type'] ?? '';
  return /^multipart\/form-data\b/i.test(type)
    ? readMultipart(req, maxBytes, field, fieldBytesMax)
    : readRaw(req, maxBytes, type);
}

function readRaw(req: Request, maxBytes: number, contentType: string): Promise<FileBodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) over = true;
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return resolve(tooLarge(maxBytes));
      if (size === 0) {
        return resolve({
          ok: false,
          reason: 'no_file',
          detail:
            'The body is empty: send the file as the body (with its Content-Type), or as multipart/form-data in field "file".',
        });
      }
      resolve({
        ok: true,
        file: { contentType, filename: null, bytes: new Uint8Array(Buffer.concat(chunks)), fields: {} },
      });
    });
    req.on('error', () =>
      resolve({ ok: false, reason: 'malformed', detail: 'The body could not be read to its end.' }),
    );
  });
}

function readMultipart(
  req: Request,
  maxBytes: number,
  field: string,
  fieldBytesMax: number,
): Promise<FileBodyResult> {
  return new Promise((resolve) => {
    let parser: Busboy;
    try {
      parser = new Busboy({
        headers: req.headers as BusboyHeaders,
        limits: {
          files: 1,
          fileSize: maxBytes,
          fields: FIELDS_MAX,
          fieldSize: fieldBytesMax,
          parts: FIELDS_MAX + 1,
        },
      });
    } catch (error) {
      // No boundary, or a Content-Type busboy cannot read.
      const detail = `The multipart body could not be read (${error instanceof Error ? error.message : 'bad header'}): send multipart/form-data with a boundary, the file in field "${field}".`;
      void drain(req).then(() => resolve({ ok: false, reason: 'malformed', detail }));
      return;
    }
    const fields: Record<string, string> = {};
    let file: Omit<FileBody, 'fields'> | null = null;
    let over = false;
    let longField: string | null = null;
    let pending = Promise.resolve();
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) longField = name;
      fields[name] = value;
    });
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (name !== field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        over = true;
        chunks.length = 0;
      });
      pending = new Promise((done) =>
        stream.on('end', () => {
          if (!over) {
            file = {
              contentType: mimeType,
              filename: filename || null,
              bytes: new Uint8Array(Buffer.concat(chunks)),
            };
          }
          done();
        }),
      );
    });
    parser.on('error', (failure: unknown) => {
      const error = failure instanceof Error ? failure : new Error(String(failure));
      req.unpipe(parser);
      void drain(req).then(() =>
        resolve({
          ok: false,
          reason: 'malformed',
          detail: `The multipart body is not well-formed (${error.message}): send multipart/form-data, the file in field "${field}".`,
        }),
      );
    });
    parser.on('finish', () => {
      void pending.then(() => {
        if (over) return resolve(tooLarge(maxBytes));
        if (longField !== null) {
          return resolve({
            ok: false,
            reason: 'too_large',
            detail: `The field "${longField}" is longer than ${fieldBytesMax} bytes, the most it takes; nothing was stored.`,
          });
        }
        if (!file || file.bytes.byteLength === 0) {
          return resolve({
            ok: false,
            reason: 'no_file',
            detail: `No file in field "${field}": send the file there (multipart/form-data), or as the raw body.`,
            fields,
          });
        }
        resolve({ ok: true, file: { ...file, fields } });
      });
    });
    req.pipe(parser);
  });
}

/** A file part of a multipart form: its bytes, or `over` when it went past the limit (bytes dropped). */
export interface FormFile {
  field: string;
  filename: string | null;
  contentType: string;
  bytes: Uint8Array;
  over: boolean;
}

export interface MultipartLimits {
  /** The whole body: a larger declared length is refused before a byte is read. */
  bodyBytes: number;
  /** Each file: past it, the file is marked `over` and its bytes are dropped as they come. */
  fileBytes: number;
  /** All files together: past it, every further file is marked `over`. */
  filesBytes: number;
  fields: number;
  fieldBytes: number;
}

export type MultipartFormResult =
  | { ok: true; fields: Record<string, string>; files: FormFile[] }
  | { ok: false; reason: 'too_large' | 'malformed'; detail: string };

/**
 * A whole multipart form (a page's form with file fields): every field, and every file that was
 * chosen (empty file fields are left out), each bounded. The body is read to its end, so a file
 * over its limit is reported beside the form's other fields rather than as a broken connection.
 */
export async function readMultipartForm(req: Request, limits: MultipartLimits): Promise<MultipartFormResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.bodyBytes) {
    await drain(req);
    return {
      ok: false,
      reason: 'too_large',
      detail: `The form is larger than ${Math.round(limits.bodyBytes / (1024 * 1024))} MB; nothing was stored.`,
    };
  }
  return new Promise((resolve) => {
    let parser: Busboy;
    try {
      parser = new Busboy({
        headers: req.headers as BusboyHeaders,
        limits: { fileSize: limits.fileBytes, fields: limits.fields, fieldSize: limits.fieldBytes },
      });
    } catch (error) {
      const detail = `The form could not be read (${error instanceof Error ? error.message : 'bad header'}).`;
      void drain(req).then(() => resolve({ ok: false, reason: 'malformed', detail }));
      return;
    }
    const fields: Record<string, string> = {};
    const files: FormFile[] = [];
    const pending: Array<Promise<void>> = [];
    let kept = 0;
    let fieldsOver = false;
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) fieldsOver = true;
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => {
      fieldsOver = true;
    });
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (over) return;
        if (kept + chunk.length > limits.filesBytes) {
          over = true;
          chunks.length = 0;
          return;
        }
        kept += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () => {
        over = true;
        chunks.length = 0;
      });
      pending.push(
        new Promise((done) =>
          stream.on('end', () => {
            // A file field left empty is sent as a part with no name and no bytes.
            if (size > 0 || filename) {
              files.push({
                field: name,
                filename: filename || null,
                contentType: mimeType,
                bytes: over ? new Uint8Array() : new Uint8Array(Buffer.concat(chunks)),
                over,
              });
            }
            done();
          }),
        ),
      );
    });
    parser.on('error', (failure: unknown) => {
      const error = failure instanceof Error ? failure : new Error(String(failure));
      req.unpipe(parser);
      void drain(req).then(() =>
        resolve({
          ok: false,
          reason: 'malformed',
          detail: `The form is not well-formed (${error.message}).`,
        }),
      );
    });
    parser.on('finish', () => {
      void Promise.all(pending).then(() => {
        if (fieldsOver) {
          return resolve({
            ok: false,
            reason: 'too_large',
            detail: 'The form has more or longer fields than it takes; nothing was stored.',
          });
        }
        resolve({ ok: true, fields, files });
      });
    });
    req.pipe(parser);
  });
}
