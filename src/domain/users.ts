import { z } from 'zod';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { DomainError } from './errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { parseOrThrow } from './quiz-input';

export const EmailSchema = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, { error: 'email is too long' })
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'Enter an email address such as name@example.com' });

export const PasswordSchema = z
  .string({ error: 'password must be a string' })
  .min(10, { error: 'Use a password of at least 10 characters' })
  .max(200, { error: 'Use a password of at most 200 characters' });

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
