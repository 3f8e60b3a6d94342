import type { DomainDeps } from '../domain/deps';

/**
 * The IANA zone an owner's dashboard shows times in and the editor picks them in. Accounts have
 * no time-zone setting yet, so every owner reads UTC, as the pages say beside each time.
 */
export async function ownerTimeZone(_deps: DomainDeps, _ownerId: string): Promise<string> {
  return 'UTC';
}
