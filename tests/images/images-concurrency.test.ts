// Pictures under concurrent writes, through the quiz repository on both databases: one edit
// removing a picture's last use while another adds a use of it never fails on the foreign key,
// and the picture is kept exactly when a use is left; two writes by one account adding pictures
// at once cannot both pass the account's quota.
import { randomBytes } from 'node:crypto';
import type { NewImage } from '../../src/db/repositories/images';
import type { QuestionData } from '../../src/db/repositories/quizzes';
import { decodeImage } from '../../src/domain/images/decode-image';
import { quotaCheck } from '../../src/domain/images/resolve-images';
import type { DomainDeps } from '../../src/domain/deps';
import { createTestUser, describeEachDatabase } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { noisePng, solidPng } from './fixtures';

const question = (image: NewImage | null): QuestionData => ({
  type: 'yes_no',
  text: 'Is this a square?',
  explanation: null,
  key: { points: 1, correctAnswer: 'yes' },
  media: image
    ? {
        image: { hash: image.hash, format: 'png', alt: 'A square', width: image.width, height: image.height },
      }
    : null,
});

const blobOf = async (png: Buffer): Promise<NewImage> => {
  const decoded = await decodeImage(png);
  return { ...decoded, mediaType: decoded.mediaType };
};

describeEachDatabase('pictures under concurrent writes', (provider) => {
  let db: TestDatabase;
  let ownerId: string;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    ownerId = (await createTestUser(db)).id;
  });
  afterAll(async () => {
    await db.drop();
  });

  const deps = (quota: { quizQuotaBytes: number; accountQuotaBytes: number }) =>
    ({ images: { ...quota, allowLoopback: false, fetchTimeoutMs: 1_000 } }) as unknown as DomainDeps;
  const roomy = deps({ quizQuotaBytes: 1e8, accountQuotaBytes: 1e8 });

  const createQuiz = async (owner: string, image: NewImage | null) => {
    const slug = `q-${randomBytes(5).toString('hex')}`;
    const quiz = await db.repos.quizzes.create({
      ownerId: owner,
      title: slug,
      titleKey: slug,
      slug,
      description: null,
      settings: {},
      questions: [question(image)],
      ...(image ? { images: quotaCheck(roomy, [image]) } : {}),
    });
    return quiz!.id;
  };

  const setPicture = (owner: string, id: string, image: NewImage | null, blobs: NewImage[], check = roomy) =>
    db.repos.quizzes.update(
      owner,
      id,
      { settings: {}, questions: [question(image)], images: quotaCheck(check, blobs) },
      () => undefined,
    );

  test("removing a picture's last use while another quiz adds a use of it: both edits succeed, and the picture stays exactly while used", async () => {
    const picture = await blobOf(await solidPng(40, 40, '#39c'));
    const stored = () => db.prisma.imageBlob.count({ where: { hash: picture.hash } });
    for (let round = 0; round < 12; round += 1) {
      const holder = await createQuiz(ownerId, picture);
      const taker = await createQuiz(ownerId, null);
      // The taker names the stored picture without its bytes on odd rounds (as an address of
      // ours does), and sends them on even rounds (as data does).
      const results = await Promise.allSettled([
        setPicture(ownerId, holder, null, []),
        setPicture(ownerId, taker, picture, round % 2 === 0 ? [picture] : []),
      ]);
      const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      // An edit naming a picture that was deleted under it (no bytes sent) is refused cleanly.
      for (const failure of failures) {
        expect(round % 2).toBe(1);
        expect(String((failure as Error).message)).toMatch(/cannot be used; nothing was changed/);
      }
      const used = await db.prisma.quizImage.count({ where: { hash: picture.hash } });
      expect(await stored()).toBe(used > 0 ? 1 : 0);
      if (failures.length === 0) expect(used).toBe(1);
      // Back to one quiz holding it for the next round.
      await db.prisma.quiz.deleteMany({ where: { id: { in: [holder, taker] } } });
      await db.prisma.imageBlob.deleteMany({ where: { hash: picture.hash } });
    }
  });

  test("two quizzes of one account adding pictures at once cannot both pass the account's quota", async () => {
    const owner = (await createTestUser(db, 'quota')).id;
    const a = await blobOf(await noisePng(40));
    const b = await blobOf(await noisePng(41));
    // Room for either picture, not both.
    const tight = deps({
      quizQuotaBytes: 1e8,
      accountQuotaBytes: Math.max(a.bytes.length, b.bytes.length) + 100,
    });
    for (let round = 0; round < 6; round += 1) {
      const first = await createQuiz(owner, null);
      const second = await createQuiz(owner, null);
      const results = await Promise.allSettled([
        setPicture(owner, first, a, [a], tight),
        setPicture(owner, second, b, [b], tight),
      ]);
      const passed = results.filter((result) => result.status === 'fulfilled');
      expect(passed).toHaveLength(1);
      const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(String(refused.reason.issues?.[0]?.message)).toMatch(/past the account's quota/);
      expect(await db.prisma.imageBlob.count({ where: { hash: { in: [a.hash, b.hash] } } })).toBe(1);
      await db.prisma.quiz.deleteMany({ where: { id: { in: [first, second] } } });
      await db.prisma.imageBlob.deleteMany({ where: { hash: { in: [a.hash, b.hash] } } });
    }
  });
});
