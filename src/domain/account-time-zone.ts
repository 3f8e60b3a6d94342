import type { Repositories } from '../db/repositories';
import { DomainError, invalidInput } from './errors';
import { canonicalTimeZone, DEFAULT_TIME_ZONE, parseTime, timeZoneProblem } from './time-zone';

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
