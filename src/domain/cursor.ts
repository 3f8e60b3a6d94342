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

export function decodeCursor(cursor: string, field = 'cursor'): CursorPosition {
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof time === 'number' &&
      Number.isFinite(new Date(time).getTime()) &&
      typeof id === 'string' &&
      id.length > 0
    ) {
      return { at: new Date(time), id };
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
