-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_quizzes" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "titleKey" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "version" INTEGER NOT NULL DEFAULT 1,
    "publishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "acceptingResponses" BOOLEAN NOT NULL DEFAULT true,
    "showScoreToRespondent" BOOLEAN NOT NULL DEFAULT true,
    "passMarkPercent" REAL,
    "collectName" BOOLEAN NOT NULL DEFAULT true,
    "collectEmail" BOOLEAN NOT NULL DEFAULT false,
    "requireAllAnswers" BOOLEAN NOT NULL DEFAULT true,
    "description" TEXT,
    "showCorrectAnswers" TEXT NOT NULL DEFAULT 'never',
    "allowEmbedding" BOOLEAN NOT NULL DEFAULT false,
    "mathDollars" BOOLEAN NOT NULL DEFAULT false,
    "timeLimitMinutes" INTEGER,
    "opensAt" DATETIME,
    "closesAt" DATETIME,
    "shuffleQuestions" BOOLEAN NOT NULL DEFAULT false,
    "shuffleOptions" BOOLEAN NOT NULL DEFAULT false,
    "questionPoolSize" INTEGER,
    "maxAttemptsPerEmail" INTEGER,
    "language" TEXT NOT NULL DEFAULT 'en',
    "linkSecret" TEXT,
    "closedEventAt" DATETIME,
    CONSTRAINT "quizzes_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_quizzes" ("acceptingResponses", "allowEmbedding", "closedEventAt", "closesAt", "collectEmail", "collectName", "createdAt", "description", "id", "language", "linkSecret", "maxAttemptsPerEmail", "opensAt", "ownerId", "passMarkPercent", "publishedAt", "questionPoolSize", "requireAllAnswers", "showCorrectAnswers", "showScoreToRespondent", "shuffleOptions", "shuffleQuestions", "slug", "status", "timeLimitMinutes", "title", "titleKey", "updatedAt", "version") SELECT "acceptingResponses", "allowEmbedding", "closedEventAt", "closesAt", "collectEmail", "collectName", "createdAt", "description", "id", "language", "linkSecret", "maxAttemptsPerEmail", "opensAt", "ownerId", "passMarkPercent", "publishedAt", "questionPoolSize", "requireAllAnswers", "showCorrectAnswers", "showScoreToRespondent", "shuffleOptions", "shuffleQuestions", "slug", "status", "timeLimitMinutes", "title", "titleKey", "updatedAt", "version" FROM "quizzes";
DROP TABLE "quizzes";
ALTER TABLE "new_quizzes" RENAME TO "quizzes";
CREATE UNIQUE INDEX "quizzes_slug_key" ON "quizzes"("slug");
CREATE INDEX "quizzes_ownerId_createdAt_idx" ON "quizzes"("ownerId", "createdAt");
CREATE INDEX "quizzes_ownerId_titleKey_idx" ON "quizzes"("ownerId", "titleKey");
CREATE INDEX "quizzes_closesAt_idx" ON "quizzes"("closesAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
