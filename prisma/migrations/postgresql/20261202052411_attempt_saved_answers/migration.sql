-- AlterTable
ALTER TABLE "attempts" ADD COLUMN     "autoSubmitted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "responseId" TEXT,
ADD COLUMN     "savedAnswers" TEXT,
ADD COLUMN     "savedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "attempts_submittedAt_deadline_idx" ON "attempts"("submittedAt", "deadline");

-- CreateIndex
CREATE INDEX "attempts_responseId_idx" ON "attempts"("responseId");
