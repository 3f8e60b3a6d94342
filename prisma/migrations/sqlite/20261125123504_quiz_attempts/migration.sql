-- CreateTable
CREATE TABLE "attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "quizId" TEXT NOT NULL,
    "quizVersion" INTEGER NOT NULL,
    "email" TEXT,
    "layout" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline" DATETIME,
    "submittedAt" DATETIME,
    CONSTRAINT "attempts_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable: new columns in place (no table rebuild), so existing quizzes keep every row.
ALTER TABLE "quizzes" ADD COLUMN "timeLimitMinutes" INTEGER;
ALTER TABLE "quizzes" ADD COLUMN "opensAt" DATETIME;
ALTER TABLE "quizzes" ADD COLUMN "closesAt" DATETIME;
ALTER TABLE "quizzes" ADD COLUMN "shuffleQuestions" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "quizzes" ADD COLUMN "shuffleOptions" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "quizzes" ADD COLUMN "questionPoolSize" INTEGER;
ALTER TABLE "quizzes" ADD COLUMN "maxAttemptsPerEmail" INTEGER;
ALTER TABLE "quizzes" ADD COLUMN "language" TEXT NOT NULL DEFAULT 'en';

-- CreateIndex
CREATE INDEX "attempts_quizId_email_idx" ON "attempts"("quizId", "email");
