-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "closedEventAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "quizzes_closesAt_idx" ON "quizzes"("closesAt");
