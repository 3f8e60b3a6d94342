import {
  canonicalTimeZone,
  dateTimeLocalValue,
  displayTime,
  localIso,
  offsetMinutes,
  parseTime,
  timeZoneNames,
  zonedTime,
} from '../../src/domain/time-zone';

const at = (text: string) => {
  const parsed = parseTime(text, 'UTC');
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.at;
};

describe('time zones, with Intl only', () => {
  test('IANA names are recognised and canonicalised; offsets and nonsense are not zones', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names).toContain('America/Sao_Paulo');
  });

  test('a time without an offset is read on the clocks of the zone, winter and summer', () => {
    const winter = parseTime('2026-11-27T18:00', 'Europe/Paris');
    expect(winter).toEqual({ ok: true, at: new Date('2026-11-27T17:00:00.000Z') });
    const summer = parseTime('2026-07-01 09:30:15', 'Europe/Paris');
    expect(summer).toEqual({ ok: true, at: new Date('2026-07-01T07:30:15.000Z') });
    expect(parseTime('2026-11-27T18:00', 'America/New_York')).toEqual({
      ok: true,
      at: new Date('2026-11-27T23:00:00.000Z'),
    });
    expect(parseTime('2026-11-27T18:00', 'Asia/Kolkata')).toEqual({
      ok: true,
      at: new Date('2026-11-27T12:30:00.000Z'),
    });
  });

  test('a time with an offset is that instant, whatever the zone', () => {
    expect(parseTime('2026-11-27T18:00:00+01:00', 'Asia/Tokyo')).toEqual({
      ok: true,
      at: new Date('2026-11-27T17:00:00.000Z'),
    });
    expect(parseTime('2026-11-27T18:00:00.250z', 'Asia/Tokyo')).toEqual({
      ok: true,
      at: new Date('2026-11-27T18:00:00.250Z'),
    });
  });

  test('around a daylight-saving change: a skipped time moves forward, a repeated one is the earlier', () => {
    // Berlin, 29 March 2026: 02:00 becomes 03:00.
    expect(parseTime('2026-03-29T02:30', 'Europe/Berlin')).toEqual({
      ok: true,
      at: new Date('2026-03-29T01:30:00.000Z'),
    });
    expect(localIso(new Date('2026-03-29T01:30:00.000Z'), 'Europe/Berlin')).toBe('2026-03-29T03:30:00+02:00');
    // Berlin, 25 October 2026: 03:00 goes back to 02:00, so 02:30 happens twice.
    expect(parseTime('2026-10-25T02:30', 'Europe/Berlin')).toEqual({
      ok: true,
      at: new Date('2026-10-25T00:30:00.000Z'),
    });
  });

  test('malformed and impossible times say what to send', () => {
    const friday = parseTime('Friday', 'Europe/Paris');
    expect(friday).toEqual({
      ok: false,
      message: expect.stringContaining('2026-11-27T18:00 (read in Europe/Paris)'),
    });
    expect(parseTime('2026-02-30T10:00', 'UTC')).toEqual({
      ok: false,
      message: expect.stringContaining('not a real'),
    });
    expect(parseTime('2026-11-27T24:00', 'UTC')).toEqual({
      ok: false,
      message: expect.stringContaining('not a real'),
    });
    expect(parseTime('2026-11-27', 'UTC').ok).toBe(false);
  });

  test('instants are shown in the zone: ISO with offset, the picker value, and for people', () => {
    const instant = at('2026-11-27T17:00:00Z');
    expect(localIso(instant, 'Europe/Paris')).toBe('2026-11-27T18:00:00+01:00');
    expect(localIso(instant, 'UTC')).toBe('2026-11-27T17:00:00Z');
    expect(localIso(instant, 'America/St_Johns')).toBe('2026-11-27T13:30:00-03:30');
    expect(offsetMinutes(instant, 'Asia/Kolkata')).toBe(330);
    expect(dateTimeLocalValue(instant, 'Europe/Paris')).toBe('2026-11-27T18:00');
    expect(zonedTime(instant, 'Europe/Paris')).toEqual({
      utc: '2026-11-27T17:00:00.000Z',
      local: '2026-11-27T18:00:00+01:00',
      time_zone: 'Europe/Paris',
    });
    expect(displayTime(instant, 'Europe/Paris')).toBe('27 Nov 2026, 18:00 (Europe/Paris)');
    // The picker's value read back gives the same instant.
    expect(parseTime(dateTimeLocalValue(instant, 'Asia/Kolkata'), 'Asia/Kolkata')).toEqual({
      ok: true,
      at: instant,
    });
  });
});

test('a name Intl accepts but does not list is kept as written; listed names get their listed case', () => {
  expect(canonicalTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
  expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
  expect(canonicalTimeZone('utc')).toBe('UTC');
  expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
});
