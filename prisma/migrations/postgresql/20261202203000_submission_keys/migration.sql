-- CreateTable
CREATE TABLE "submission_keys" (
    "quizId" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "bodyHash" TEXT,
    "responseId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "submission_keys_pkey" PRIMARY KEY ("quizId","keyHash")
);

-- CreateIndex
CREATE INDEX "submission_keys_createdAt_idx" ON "submission_keys"("createdAt");

-- AddForeignKey
ALTER TABLE "submission_keys" ADD CONSTRAINT "submission_keys_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
