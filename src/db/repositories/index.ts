import type { PrismaClient } from '../../generated/sqlite/client';
import type { Dialect } from '../dialect';
import type { HotQueries } from '../hot-queries';
import type { QuizReads } from '../quiz-reads';
import { prismaAttemptRepository, type AttemptRepository } from './attempts';
import { prismaImageRepository, type ImageRepository } from './images';
import { prismaLtiRepository, type LtiRepository } from './lti';
import type { ResponseWrites } from '../response-writes';
import { prismaOAuthRepository, type OAuthRepository } from './oauth';
import { prismaQuizRepository, type QuizRepository } from './quizzes';
import { prismaResponseRepository, type ResponseRepository } from './responses';
import { prismaUploadRepository, type UploadRepository } from './uploads';
import { prismaUserRepository, type UserRepository } from './users';
import { prismaWebhookRepository, type WebhookRepository } from './webhooks';

/**
 * What the domain asks of storage, one repository per aggregate. The domain sees these
 * interfaces only: which database answers, and whether through Prisma or hand-written SQL,
 * is decided here and in database.ts.
 */
export interface Repositories {
  users: UserRepository;
  quizzes: QuizRepository;
  responses: ResponseRepository;
  oauth: OAuthRepository;
  attempts: AttemptRepository;
  webhooks: WebhookRepository;
  uploads: UploadRepository;
  images: ImageRepository;
  lti: LtiRepository;
}

/**
 * Builds the repositories over one Prisma client. `raw` answers the reads on every request's
 * path (hot-queries.ts, quiz-reads.ts; pass their Prisma versions to use Prisma for them) and
 * makes the writes that keep the results' running figures (response-writes.ts).
 */
export function createRepositories(
  db: PrismaClient,
  raw: {
    hot: Pick<HotQueries, 'apiKeyByHash' | 'oauthAccessTokenByHash'>;
    reads: QuizReads;
    writes: ResponseWrites;
    /** The SQL dialect of the database `db` opened (database.ts): the outbox and the claims write raw SQL. */
    dialect: Dialect;
  },
): Repositories {
  return {
    users: prismaUserRepository(db, raw.hot),
    quizzes: prismaQuizRepository(db, raw.reads, raw.dialect),
    responses: prismaResponseRepository(db, raw.writes),
    oauth: prismaOAuthRepository(db, raw.hot),
    attempts: prismaAttemptRepository(db),
    webhooks: prismaWebhookRepository(db, raw.dialect),
    uploads: prismaUploadRepository(db),
    images: prismaImageRepository(db),
    lti: prismaLtiRepository(db),
  };
}

export type * from './attempts';
export type * from './images';
export type * from './lti';
export type * from './oauth';
export type * from './quizzes';
export type * from '../quiz-rows';
export type * from './responses';
export type * from './uploads';
export type * from './users';
export type * from './webhooks';
export type { KeysetPosition } from './where';
export {
  AttemptAlreadySubmitted,
  PerEmailLimitReached,
  SubmissionKeyUsed,
  type AttemptClaim,
  type PerEmailLimit,
  type SubmissionGuards,
  type SubmissionKey,
} from '../response-rows';
export { PENDING_CODE } from '../result-aggregates';
