import { z } from 'zod';
import type { Repositories } from '../db/repositories';
import { DomainError, invalidInput } from './errors';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from './passwords';
import { parseOrThrow } from './quiz-input';

export const EmailSchema = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'email is too long' })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'Enter an email address such as name@example.com' });

/** The whole rule in one sentence, said wherever a password is refused. */
export const PASSWORD_RULE =
  'Use a password of 10 to 200 characters (any characters, spaces too; a few unrelated words make a strong one)';

export const PasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(10, { error: PASSWORD_RULE })
  .max(200, { error: PASSWORD_RULE });

export const NewUserSchema = z.object({ email: EmailSchema, password: PasswordSchema });

type Users = Pick<Repositories, 'users'>;

export async function createUser({ users }: Users, input: { email: string; password: string }) {
  const { email, password } = parseOrThrow(NewUserSchema, input, 'Cannot create the user');
  const user = await users.create(email, await hashPassword(password));
  if (!user) {
    throw new DomainError('user_exists', `A user with the email ${email} already exists.`, [
      { field: 'email', message: 'is already registered' },
    ]);
  }
  return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
}

export async function findUserByEmail({ users }: Users, email: string) {
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) return null;
  return users.byEmail(parsed.data);
}

export async function requireUserByEmail(repos: Users, email: string) {
  const user = await findUserByEmail(repos, email);
  if (!user) throw new DomainError('user_not_found', `No user with the email ${email.trim()}.`);
  return user;
}

/**
 * Email and password check with one answer for "no such user" and "wrong password", and
 * the same scrypt cost on both paths, so the response reveals neither. A hash made under other
 * parameters than the current ones is made again now, while the password is at hand.
 */
export async function authenticateUser(repos: Users, email: string, password: string) {
  const user = await findUserByEmail(repos, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw new DomainError('invalid_credentials', 'The email or password is not right.');
  if (needsRehash(user.passwordHash)) {
    await repos.users.rehashPassword(user.id, user.passwordHash, await hashPassword(password));
  }
  return { id: user.id, email: user.email };
}

/**
 * The operator's reset (the CLI's `users set-password`): no mail server is assumed, so a
 * forgotten password is set again by whoever runs the service. Every session of the account
 * ends; its API keys and connected apps stay, each revocable on its own page.
 */
export async function setPassword(repos: Users, email: string, password: string) {
  const user = await requireUserByEmail(repos, email);
  const next = parseOrThrow(PasswordSchema, password, 'Cannot set the password');
  const ended = await repos.users.replacePasswordHash(user.id, await hashPassword(next));
  return { id: user.id, email: user.email, sessionsEnded: ended };
}

async function requirePassword({ users }: Users, userId: string, password: string, field: string) {
  const user = await users.byId(userId);
  if (!user || !(await verifyPassword(password, user.passwordHash))) {
    throw new DomainError('invalid_credentials', 'The current password is not right.', [
      { field, message: 'is not your current password' },
    ]);
  }
  return user;
}

/** The owner's own change: the current password first; every other session of the account ends. */
export async function changePassword(
  repos: Users,
  input: { userId: string; currentPassword: string; newPassword: string; keepSessionId: string },
) {
  const parsed = PasswordSchema.safeParse(input.newPassword);
  if (!parsed.success) throw invalidInput([{ field: 'new_password', message: PASSWORD_RULE }]);
  await requirePassword(repos, input.userId, input.currentPassword, 'current_password');
  const hash = await hashPassword(parsed.data);
  const ended = await repos.users.replacePasswordHash(input.userId, hash, input.keepSessionId);
  return { otherSessionsEnded: ended };
}

/** What deleting the account removes, counted for the page that asks first. */
export async function accountContents(repos: Repositories, userId: string) {
  const [quizzes, responses, apiKeys, connectedApps] = await Promise.all([
    repos.quizzes.countByOwner(userId),
    repos.responses.countForOwner(userId),
    repos.users.activeApiKeyCount(userId),
    repos.oauth.activeGrantCount(userId, new Date()),
  ]);
  return { quizzes, responses, apiKeys, connectedApps };
}

/**
 * Deletes the account and everything it owns (quizzes with their responses, API keys, OAuth
 * grants and their tokens, sessions: the foreign keys cascade), once the password is given.
 */
export async function deleteAccount(repos: Users, userId: string, password: string): Promise<void> {
  await requirePassword(repos, userId, password, 'password');
  await repos.users.delete(userId);
}
