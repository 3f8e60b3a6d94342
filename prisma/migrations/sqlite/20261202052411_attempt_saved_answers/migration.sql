-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "quizId" TEXT NOT NULL,
    "quizVersion" INTEGER NOT NULL,
    "email" TEXT,
    "layout" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadline" DATETIME,
    "submittedAt" DATETIME,
    "savedAnswers" TEXT,
    "savedAt" DATETIME,
    "responseId" TEXT,
    "autoSubmitted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "attempts_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_attempts" ("deadline", "email", "id", "layout", "quizId", "quizVersion", "startedAt", "submittedAt") SELECT "deadline", "email", "id", "layout", "quizId", "quizVersion", "startedAt", "submittedAt" FROM "attempts";
DROP TABLE "attempts";
ALTER TABLE "new_attempts" RENAME TO "attempts";
CREATE INDEX "attempts_quizId_email_idx" ON "attempts"("quizId", "email");
CREATE INDEX "attempts_submittedAt_deadline_idx" ON "attempts"("submittedAt", "deadline");
CREATE INDEX "attempts_responseId_idx" ON "attempts"("responseId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
