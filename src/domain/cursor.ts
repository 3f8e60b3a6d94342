import { DomainError } from './errors';

/**
 * Opaque keyset cursors for newest-first lists: (timestamp, id) of the last item seen.
 * Keyset rather than offset, so that rows added meanwhile neither repeat nor vanish.
 */
export interface CursorPosition {
  at: Date;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at.getTime(), position.id])).toString('base64url');
}

/**
 * The ids this service gives rows (cuids) and nothing else: a forged cursor's id goes into a
 * query, where a NUL or a lone surrogate would fail on PostgreSQL instead of finding nothing.
 */
const ROW_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Base64 of `[<13-digit time>,"<64-character id>"]`, with room to spare. */
const MAX_CURSOR_LENGTH = 200;

export function decodeCursor(cursor: string, field = 'cursor'): CursorPosition {
  try {
    if (cursor.length <= MAX_CURSOR_LENGTH) {
      const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
      if (
        typeof time === 'number' &&
        Number.isFinite(new Date(time).getTime()) &&
        typeof id === 'string' &&
        ROW_ID.test(id)
      ) {
        return { at: new Date(time), id };
      }
    }
  } catch {
    // fall through to the error below
  }
  throw new DomainError(
    'invalid_input',
    `${field}: not a cursor this tool gave out. Pass the next_cursor of a previous answer, or leave it out to start from the newest.`,
    [{ field, message: 'not a cursor this tool gave out' }],
  );
}

/** A position in a list ordered by percent: the percent, time and id of the last item seen. */
export interface ScoreCursorPosition extends CursorPosition {
  percent: number;
}

export function encodeScoreCursor(position: ScoreCursorPosition): string {
  return Buffer.from(JSON.stringify([position.percent, position.at.getTime(), position.id])).toString(
    'base64url',
  );
}

/** A score cursor, or null when `cursor` is not one (a time cursor, or nothing this service gave out). */
export function readScoreCursor(cursor: string): ScoreCursorPosition | null {
  try {
    if (cursor.length > MAX_CURSOR_LENGTH) return null;
    const [percent, time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof percent === 'number' &&
      Number.isFinite(percent) &&
      typeof time === 'number' &&
      Number.isFinite(new Date(time).getTime()) &&
      typeof id === 'string' &&
      ROW_ID.test(id)
    ) {
      return { percent, at: new Date(time), id };
    }
  } catch {
    // not a score cursor
  }
  return null;
}
