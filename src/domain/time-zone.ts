/**
 * Time zones, with Intl only: the account's zone, wall-clock times read in a zone, and instants
 * shown in one. Every surface converts here (tools, the dashboard's times and its date-time
 * picker), so a time reads the same wherever it is shown or typed.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

let byLowerCase: Map<string, string> | undefined;

/**
 * The zone's IANA name as listed ("europe/paris" gives "Europe/Paris"), or null when Intl does
 * not know it. A name Intl accepts but does not list (a newer alias such as Asia/Kolkata, which
 * some ICU versions list as Asia/Calcutta) is kept as the caller wrote it.
 */
export function canonicalTimeZone(zone: string): string | null {
  const trimmed = zone.trim();
  // IANA names only: a bare offset ("+01:00") has no daylight-saving rules to follow.
  if (!/^[A-Za-z]/.test(trimmed) || trimmed.length > 64) return null;
  byLowerCase ??= new Map(timeZoneNames().map((name) => [name.toLowerCase(), name]));
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
    return byLowerCase.get(trimmed.toLowerCase()) ?? (resolved === 'UTC' ? 'UTC' : trimmed);
  } catch {
    return null;
  }
}

export function isTimeZone(zone: string): boolean {
  return canonicalTimeZone(zone) !== null;
}

/** Every zone the account page offers: UTC first, then the IANA zones Intl knows. */
export function timeZoneNames(): string[] {
  return [DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
}

/** What to say about a zone that is not one. */
export function timeZoneProblem(zone: string): string {
  return `"${zone.slice(0, 64)}" is not an IANA time zone: use a name such as Europe/Paris, America/New_York or UTC`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** A wall-clock reading: what a clock on the wall in some zone shows. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a clock in `zone` shows at `at`. */
export function wallClockAt(at: Date, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(zone).formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const wallMillis = (clock: WallClock, ms = 0): number =>
  Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second, ms);

/** The zone's offset from UTC at `at`, in minutes (Paris in winter: 60). */
export function offsetMinutes(at: Date, zone: string): number {
  const whole = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wallMillis(wallClockAt(new Date(whole), zone)) - whole) / 60_000);
}

/**
 * The instant a wall-clock time in `zone` names. Around a daylight-saving change it does what
 * calendars do: a time that happens twice is the earlier one, and a time skipped by the change
 * is read with the offset before it (02:30 on the night clocks go from 02:00 to 03:00 is 03:30).
 */
export function instantOf(clock: WallClock, zone: string, ms = 0): Date {
  const guess = wallMillis(clock, ms);
  const before = offsetMinutes(new Date(guess - 86_400_000), zone);
  const after = offsetMinutes(new Date(guess + 86_400_000), zone);
  const candidates = [...new Set([before, after])]
    .map((offset) => guess - offset * 60_000)
    .filter((instant) => wallMillis(wallClockAt(new Date(instant), zone), ms) === guess)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? guess - before * 60_000);
}

function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `at` as the zone's local ISO-8601 time with its offset: 2026-11-27T18:00:00+01:00 (Z in UTC). */
export function localIso(at: Date, zone: string): string {
  const clock = wallClockAt(at, zone);
  return (
    `${String(clock.year).padStart(4, '0')}-${two(clock.month)}-${two(clock.day)}` +
    `T${two(clock.hour)}:${two(clock.minute)}:${two(clock.second)}${offsetText(offsetMinutes(at, zone))}`
  );
}

/** An instant as the tools answer it: UTC, and the local time in the zone named. */
export interface ZonedTime {
  utc: string;
  local: string;
  time_zone: string;
}

export function zonedTime(at: Date, zone: string): ZonedTime {
  return { utc: at.toISOString(), local: localIso(at, zone), time_zone: zone };
}

/** The value of an `<input type="datetime-local">` showing `at` in `zone`: 2026-11-27T18:00. */
export function dateTimeLocalValue(at: Date, zone: string): string {
  return localIso(at, zone).slice(0, 16);
}

/** `at` for people to read, in the zone: "27 Nov 2026, 18:00 (Europe/Paris)". */
export function displayTime(at: Date, zone: string, locale = 'en-GB'): string {
  const text = new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(at);
  return `${text} (${zone})`;
}

// RFC 3339's date-time, with its offset optional: a time without one is read in the zone given.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/i;

export type ParsedTime = { ok: true; at: Date } | { ok: false; message: string };

/**
 * A date and time as a caller writes it: with an offset (2026-11-27T18:00:00+01:00, or Z) it is
 * that instant; without one (2026-11-27T18:00) it is read on the clocks of `zone`.
 */
export function parseTime(text: string, zone: string): ParsedTime {
  const match = DATE_TIME.exec(text.trim());
  if (!match) {
    return {
      ok: false,
      message: `needs a date and a time, such as 2026-11-27T18:00 (read in ${zone}) or 2026-11-27T18:00:00+01:00`,
    };
  }
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const clock: WallClock = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s ?? 0),
  };
  const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, '0')) : 0;
  const probe = new Date(
    Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second),
  );
  if (
    clock.month < 1 ||
    clock.month > 12 ||
    probe.getUTCDate() !== clock.day ||
    probe.getUTCHours() !== clock.hour ||
    probe.getUTCMinutes() !== clock.minute ||
    probe.getUTCSeconds() !== clock.second
  ) {
    return { ok: false, message: `${text.trim()} is not a real date and time` };
  }
  if (!offset) return { ok: true, at: instantOf(clock, zone, ms) };
  const at = new Date(
    `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}.${String(ms).padStart(3, '0')}${offset.toUpperCase()}`,
  );
  if (Number.isNaN(at.getTime())) return { ok: false, message: `${text.trim()} is not a real date and time` };
  return { ok: true, at };
}
