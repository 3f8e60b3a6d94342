import type { Repositories } from '../db/repositories';
import { DomainError, invalidInput } from './errors';
import type { SettingsInput } from './quiz-input';
import { hasOffset } from './quiz-settings';
import {
  canonicalTimeZone,
  DEFAULT_TIME_ZONE,
  parseTime,
  timeZoneProblem,
  zonedTime,
  type ZonedTime,
} from './time-zone';

type Users = Pick<Repositories, 'users'>;

/** The account's time zone (UTC until its owner picks one). */
export async function accountTimeZone({ users }: Users, userId: string): Promise<string> {
  return (await users.byId(userId))?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** Stores the account's zone under its canonical IANA name, which it returns. */
export async function setAccountTimeZone({ users }: Users, userId: string, zone: string): Promise<string> {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) throw invalidInput([{ field: 'time_zone', message: timeZoneProblem(zone) }]);
  if (!(await users.setTimeZone(userId, canonical))) {
    throw new DomainError('user_not_found', 'This account no longer exists.');
  }
  return canonical;
}

/**
 * The zone a call reads its times in: the `timezone` it names (checked), else the account's.
 * `field` is the argument's name in the caller's terms.
 */
export async function zoneForCall(
  deps: Users,
  userId: string,
  named: string | undefined,
  field = 'timezone',
): Promise<string> {
  if (named === undefined) return accountTimeZone(deps, userId);
  const canonical = canonicalTimeZone(named);
  if (!canonical) throw invalidInput([{ field, message: timeZoneProblem(named) }]);
  return canonical;
}

/** A caller's date and time, read in `zone` when it has no offset; a field error otherwise. */
export function readTime(text: string, zone: string, field: string): Date {
  const parsed = parseTime(text, zone);
  if (!parsed.ok) throw invalidInput([{ field, message: parsed.message }]);
  return parsed.at;
}

const SETTING_TIMES = ['opens_at', 'closes_at'] as const;

/** The settings times a call read in a zone, as the answer shows them: UTC and local. */
export type TimesRead = Array<{ field: (typeof SETTING_TIMES)[number] } & ZonedTime>;

/**
 * The settings with each time written without an offset read in the call's zone (its `timezone`,
 * else the account's), and those times in UTC and local time for the answer; `times` is absent
 * when every time carried its offset, so such a call answers as it always has.
 */
export async function settingsInZone(
  deps: Users,
  userId: string,
  settings: SettingsInput | undefined,
  timezone: string | undefined,
): Promise<{ settings: SettingsInput | undefined; times?: TimesRead }> {
  const bare = SETTING_TIMES.filter((name) => {
    const value = settings?.[name];
    return typeof value === 'string' && !hasOffset(value);
  });
  // A zone named is checked even when no time needs it: a wrong one is a mistake worth saying.
  const zone =
    timezone !== undefined || bare.length > 0 ? await zoneForCall(deps, userId, timezone) : undefined;
  if (!settings || !zone || bare.length === 0) return { settings };
  const read: SettingsInput = { ...settings };
  const times: TimesRead = [];
  for (const name of bare) {
    const at = readTime(settings[name]!, zone, `settings.${name}`);
    read[name] = at.toISOString();
    times.push({ field: name, ...zonedTime(at, zone) });
  }
  return { settings: read, times };
}
