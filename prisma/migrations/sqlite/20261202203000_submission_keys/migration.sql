-- CreateTable
CREATE TABLE "submission_keys" (
    "quizId" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "bodyHash" TEXT,
    "responseId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("quizId", "keyHash"),
    CONSTRAINT "submission_keys_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "submission_keys_createdAt_idx" ON "submission_keys"("createdAt");
