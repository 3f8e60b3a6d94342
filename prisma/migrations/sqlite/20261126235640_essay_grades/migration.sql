-- AlterTable
ALTER TABLE "answers" ADD COLUMN "gradeState" TEXT;

-- CreateTable
CREATE TABLE "answer_grades" (
    "answerId" TEXT NOT NULL PRIMARY KEY,
    "quizId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "levels" JSONB,
    "points" INTEGER NOT NULL,
    "feedback" TEXT,
    "gradedBy" TEXT NOT NULL,
    "gradedAt" DATETIME NOT NULL,
    "approvedBy" TEXT,
    "approvedAt" DATETIME,
    CONSTRAINT "answer_grades_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "answers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "answer_history" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "answerId" TEXT NOT NULL,
    "quizId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "pointsBefore" INTEGER NOT NULL,
    "pointsAfter" INTEGER NOT NULL,
    "by" TEXT NOT NULL,
    "comment" TEXT,
    "at" DATETIME NOT NULL,
    CONSTRAINT "answer_history_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "answers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "assistantGradesFinal" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "quizzes_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_quizzes" ("acceptingResponses", "allowEmbedding", "closedEventAt", "closesAt", "collectEmail", "collectName", "createdAt", "description", "id", "language", "linkSecret", "mathDollars", "maxAttemptsPerEmail", "opensAt", "ownerId", "passMarkPercent", "publishedAt", "questionPoolSize", "requireAllAnswers", "showCorrectAnswers", "showScoreToRespondent", "shuffleOptions", "shuffleQuestions", "slug", "status", "timeLimitMinutes", "title", "titleKey", "updatedAt", "version") SELECT "acceptingResponses", "allowEmbedding", "closedEventAt", "closesAt", "collectEmail", "collectName", "createdAt", "description", "id", "language", "linkSecret", "mathDollars", "maxAttemptsPerEmail", "opensAt", "ownerId", "passMarkPercent", "publishedAt", "questionPoolSize", "requireAllAnswers", "showCorrectAnswers", "showScoreToRespondent", "shuffleOptions", "shuffleQuestions", "slug", "status", "timeLimitMinutes", "title", "titleKey", "updatedAt", "version" FROM "quizzes";
DROP TABLE "quizzes";
ALTER TABLE "new_quizzes" RENAME TO "quizzes";
CREATE UNIQUE INDEX "quizzes_slug_key" ON "quizzes"("slug");
CREATE INDEX "quizzes_ownerId_createdAt_idx" ON "quizzes"("ownerId", "createdAt");
CREATE INDEX "quizzes_ownerId_titleKey_idx" ON "quizzes"("ownerId", "titleKey");
CREATE INDEX "quizzes_closesAt_idx" ON "quizzes"("closesAt");
CREATE TABLE "new_responses" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "quizId" TEXT NOT NULL,
    "quizVersion" INTEGER NOT NULL,
    "respondentName" TEXT,
    "respondentEmail" TEXT,
    "score" INTEGER NOT NULL,
    "maxScore" INTEGER NOT NULL,
    "percent" REAL,
    "passed" BOOLEAN,
    "submittedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "remarkedAt" DATETIME,
    "originalScore" INTEGER,
    "originalMaxScore" INTEGER,
    "timeUp" BOOLEAN NOT NULL DEFAULT false,
    "gradingStatus" TEXT NOT NULL DEFAULT 'final',
    CONSTRAINT "responses_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_responses" ("id", "maxScore", "originalMaxScore", "originalScore", "passed", "percent", "quizId", "quizVersion", "remarkedAt", "respondentEmail", "respondentName", "score", "submittedAt", "timeUp") SELECT "id", "maxScore", "originalMaxScore", "originalScore", "passed", "percent", "quizId", "quizVersion", "remarkedAt", "respondentEmail", "respondentName", "score", "submittedAt", "timeUp" FROM "responses";
DROP TABLE "responses";
ALTER TABLE "new_responses" RENAME TO "responses";
CREATE INDEX "responses_quizId_submittedAt_id_idx" ON "responses"("quizId", "submittedAt", "id");
CREATE INDEX "responses_quizId_gradingStatus_idx" ON "responses"("quizId", "gradingStatus");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "answer_grades_quizId_state_idx" ON "answer_grades"("quizId", "state");

-- CreateIndex
CREATE INDEX "answer_history_answerId_at_idx" ON "answer_history"("answerId", "at");

-- CreateIndex
CREATE INDEX "answers_quizId_gradeState_idx" ON "answers"("quizId", "gradeState");
