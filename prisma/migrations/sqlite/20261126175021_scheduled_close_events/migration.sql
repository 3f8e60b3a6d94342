-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN "closedEventAt" DATETIME;

-- CreateIndex
CREATE INDEX "quizzes_closesAt_idx" ON "quizzes"("closesAt");
