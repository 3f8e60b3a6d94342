import { z } from 'zod';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { DomainError, invalidInput } from './errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
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

export async function createUser(db: Db, input: { email: string; password: string }) {
  const { email, password } = parseOrThrow(NewUserSchema, input, 'Cannot create the user');
  try {
    const user = await db.user.create({ data: { email, passwordHash: await hashPassword(password) } });
    return { id: user.id, email: user.email, created_at: user.createdAt.toISOString() };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DomainError('user_exists', `A user with the email ${email} already exists.`, [
        { field: 'email', message: 'is already registered' },
      ]);
    }
    throw error;
  }
}

export async function findUserByEmail(db: Db, email: string) {
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) return null;
  return db.user.findUnique({ where: { email: parsed.data } });
}

export async function requireUserByEmail(db: Db, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new DomainError('user_not_found', `No user with the email ${email.trim()}.`);
  return user;
}

/**
 * Email and password check with one answer for "no such user" and "wrong password", and
 * the same scrypt cost on both paths, so the response reveals neither.
 */
export async function authenticateUser(db: Db, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw new DomainError('invalid_credentials', 'The email or password is not right.');
  return { id: user.id, email: user.email };
}

/**
 * The operator's reset (the CLI's `users set-password`): no mail server is assumed, so a
 * forgotten password is set again by whoever runs the service. Every session of the account
 * ends; its API keys and connected apps stay, each revocable on its own page.
 */
export async function setPassword(db: Db, email: string, password: string) {
  const user = await requireUserByEmail(db, email);
  const next = parseOrThrow(PasswordSchema, password, 'Cannot set the password');
  const ended = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(next) } });
    return (await tx.session.deleteMany({ where: { userId: user.id } })).count;
  });
  return { id: user.id, email: user.email, sessionsEnded: ended };
}

async function requirePassword(db: Db, userId: string, password: string, field: string) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || !(await verifyPassword(password, user.passwordHash))) {
    throw new DomainError('invalid_credentials', 'The current password is not right.', [
      { field, message: 'is not your current password' },
    ]);
  }
  return user;
}

/** The owner's own change: the current password first; every other session of the account ends. */
export async function changePassword(
  db: Db,
  input: { userId: string; currentPassword: string; newPassword: string; keepSessionId: string },
) {
  const parsed = PasswordSchema.safeParse(input.newPassword);
  if (!parsed.success) throw invalidInput([{ field: 'new_password', message: PASSWORD_RULE }]);
  await requirePassword(db, input.userId, input.currentPassword, 'current_password');
  const hash = await hashPassword(parsed.data);
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: input.userId }, data: { passwordHash: hash } });
    const ended = await tx.session.deleteMany({
      where: { userId: input.userId, id: { not: input.keepSessionId } },
    });
    return { otherSessionsEnded: ended.count };
  });
}

/** What deleting the account removes, counted for the page that asks first. */
export async function accountContents(db: Db, userId: string) {
  const [quizzes, responses, apiKeys, connectedApps] = await Promise.all([
    db.quiz.count({ where: { ownerId: userId } }),
    db.response.count({ where: { quiz: { ownerId: userId } } }),
    db.apiKey.count({ where: { userId, revokedAt: null } }),
    db.oAuthGrant.count({ where: { userId, revokedAt: null } }),
  ]);
  return { quizzes, responses, apiKeys, connectedApps };
}

/**
 * Deletes the account and everything it owns (quizzes with their responses, API keys, OAuth
 * grants and their tokens, sessions: the foreign keys cascade), once the password is given.
 */
export async function deleteAccount(db: Db, userId: string, password: string): Promise<void> {
  await requirePassword(db, userId, password, 'password');
  await db.user.delete({ where: { id: userId } });
}
