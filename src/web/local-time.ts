/**
 * Times as a person reads and picks them: in one IANA time zone (the account's), as
 * `<input type="datetime-local">` shows them (`2026-03-01T09:00`, no offset), and back to an
 * instant. Intl does the zone arithmetic, so daylight-saving changes come from the platform's
 * time-zone data.
 */

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether `zone` is an IANA name this platform knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function partsIn(date: Date, zone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  return Object.fromEntries(
    parts.filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]),
  );
}

/** How far `zone` is ahead of UTC at `date`, in minutes. */
function offsetMinutes(date: Date, zone: string): number {
  const p = partsIn(date, zone);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as the value of a datetime-local input in `zone`: `2026-03-01T09:00`. */
export function toLocalInput(instant: string | Date, zone: string): string {
  const p = partsIn(new Date(instant), zone);
  return `${p.year}-${pad(p.month!)}-${pad(p.day!)}T${pad(p.hour!)}:${pad(p.minute!)}`;
}

/** Whether `value` is a local date and time without an offset (what datetime-local sends). */
export function isLocalInput(value: string): boolean {
  return LOCAL_INPUT.test(value);
}

/**
 * A datetime-local value read in `zone`, as an ISO instant with the zone's offset
 * (`2026-03-01T09:00:00+01:00`). A time that a clock change skips is read with the offset before it.
 */
export function fromLocalInput(value: string, zone: string): string {
  const match = LOCAL_INPUT.exec(value)!;
  const [year, month, day, hour, minute, second = '0'] = match.slice(1).map(Number) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, Number(second));
  // Two passes settle the offset on either side of a change.
  let offset = offsetMinutes(new Date(wall), zone);
  offset = offsetMinutes(new Date(wall - offset * 60_000), zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const local = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${pad(Number(second))}`;
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-03-01 09:00` in `zone`, and the zone's name or abbreviation as a reader knows it. */
export function readableTime(instant: string | Date, zone: string): { text: string; zone: string } {
  const local = toLocalInput(instant, zone).replace('T', ' ');
  if (zone === 'UTC' || zone === 'Etc/UTC') return { text: local, zone: 'UTC' };
  const name =
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'short' })
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value ?? zone;
  return { text: local, zone: name };
}
