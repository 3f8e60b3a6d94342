import type { Repositories } from '../db/repositories';

/** What domain functions need: the repositories and the public origin (for public URLs). */
export interface DomainDeps {
  repos: Repositories;
  baseUrl: string;
}
