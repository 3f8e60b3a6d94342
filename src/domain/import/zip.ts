import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import * as yazl from 'yazl';
import { UnreadableBank } from './bank';

/**
 * Zip packages (QTI content packages) in and out, with yauzl and yazl (docs/decisions/0019).
 * A package is hostile until read: it is refused whole when it holds too many entries, names a
 * path outside itself, declares or inflates past our bounds (a zip bomb), or is cut short.
 * Only the entries asked for are inflated, each counted on the stream as well as by its header.
 */

export const ZIP_LIMITS = {
  /** Entries in one package, images and stylesheets included. */
  entriesMax: 2_000,
  /** One entry read (an item, a test, the manifest), inflated. */
  entryBytesMax: 4 * 1024 * 1024,
  /** All the entries read, inflated. */
  readBytesMax: 32 * 1024 * 1024,
  /** All the entries together as their headers declare them, read or not. */
  declaredBytesMax: 256 * 1024 * 1024,
  /** Inflated to compressed, past which a large entry is taken for a bomb. */
  ratioMax: 200,
  /** Entries smaller than this are not held to the ratio (a file of spaces compresses well). */
  ratioFloorBytes: 1024 * 1024,
} as const;

/** The package's entries by path, and the bytes of those read. */
export interface ZipPackage {
  /** Every file's path (folders left out), in the order of the package. */
  paths: string[];
  /** Read on demand, within the bounds. */
  read(path: string): Promise<Buffer>;
  close(): void;
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

function refuse(message: string): never {
  throw new UnreadableBank(message);
}

/** Opens a package and checks every entry's name and declared size before anything is inflated. */
export async function openZip(bytes: Uint8Array): Promise<ZipPackage> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { strictFileNames: true, validateEntrySizes: true });
  } catch (error) {
    refuse(`the zip file is damaged or cut short (${reason(error)}): export the package again`);
  }
  if (zip.entryCount > ZIP_LIMITS.entriesMax) {
    zip.close();
    refuse(
      `the zip file holds ${zip.entryCount} entries, more than the ${ZIP_LIMITS.entriesMax} a package may hold`,
    );
  }
  const entries = new Map<string, yauzl.Entry>();
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      // yauzl has already refused absolute paths, ".." segments and backslashes (strictFileNames).
      if (entry.fileName.endsWith('/')) continue;
      declared += entry.uncompressedSize;
      if (declared > ZIP_LIMITS.declaredBytesMax) {
        refuse(
          `the zip file would inflate to more than ${mib(ZIP_LIMITS.declaredBytesMax)}: this looks like a zip bomb, and nothing was read`,
        );
      }
      if (
        entry.uncompressedSize > ZIP_LIMITS.ratioFloorBytes &&
        entry.uncompressedSize > ZIP_LIMITS.ratioMax * Math.max(1, entry.compressedSize)
      ) {
        refuse(
          `"${entry.fileName}" inflates ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times over: this looks like a zip bomb, and nothing was read`,
        );
      }
      if (entry.isEncrypted())
        refuse(`"${entry.fileName}" is encrypted: export the package without a password`);
      entries.set(entry.fileName, entry);
    }
  } catch (error) {
    zip.close();
    if (error instanceof UnreadableBank) throw error;
    const name = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(
      reason(error),
    );
    if (name) {
      refuse(`the zip names "${name[2]}", a path outside the package: refused, and nothing was read`);
    }
    refuse(`the zip file cannot be read (${reason(error)}): export the package again`);
  }

  let read = 0;
  return {
    paths: [...entries.keys()],
    async read(path) {
      const entry = entries.get(path);
      if (!entry) refuse(`the package has no file "${path}"`);
      if (entry.uncompressedSize > ZIP_LIMITS.entryBytesMax) {
        refuse(
          `"${path}" is ${mib(entry.uncompressedSize)}, more than the ${mib(ZIP_LIMITS.entryBytesMax)} a file may be`,
        );
      }
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch (error) {
        refuse(`"${path}" cannot be read (${reason(error)}): export the package again`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          read += chunk.length;
          // Counted here too: yauzl stops a stream that outgrows its header only at the end.
          if (size > ZIP_LIMITS.entryBytesMax || read > ZIP_LIMITS.readBytesMax) {
            stream.destroy();
            refuse(
              `"${path}" inflates past its bounds: this looks like a zip bomb, and nothing was imported`,
            );
          }
          chunks.push(chunk);
        }
      } catch (error) {
        if (error instanceof UnreadableBank) throw error;
        refuse(`"${path}" is damaged (${reason(error)}): export the package again`);
      }
      return Buffer.concat(chunks);
    },
    close: () => zip.close(),
  };
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}

/** A zip file of the given entries, deflated, in the order given. */
export function writeZip(files: ReadonlyArray<{ path: string; bytes: Buffer | string }>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) {
    // A fixed time, so that the same quiz exports to the same bytes.
    zip.addBuffer(Buffer.isBuffer(file.bytes) ? file.bytes : Buffer.from(file.bytes, 'utf8'), file.path, {
      mtime: new Date(Date.UTC(2020, 0, 1)),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
