-- AlterTable
ALTER TABLE "answers" ADD COLUMN     "gradeState" TEXT;

-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "assistantGradesFinal" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "responses" ADD COLUMN     "gradingStatus" TEXT NOT NULL DEFAULT 'final';

-- CreateTable
CREATE TABLE "answer_grades" (
    "answerId" TEXT NOT NULL,
    "quizId" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "levels" JSONB,
    "points" INTEGER NOT NULL,
    "feedback" TEXT,
    "gradedBy" TEXT NOT NULL,
    "gradedAt" TIMESTAMP(3) NOT NULL,
    "approvedBy" TEXT,
    "approvedAt" TIMESTAMP(3),

    CONSTRAINT "answer_grades_pkey" PRIMARY KEY ("answerId")
);

-- CreateTable
CREATE TABLE "answer_history" (
    "id" TEXT NOT NULL,
    "answerId" TEXT NOT NULL,
    "quizId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "pointsBefore" INTEGER NOT NULL,
    "pointsAfter" INTEGER NOT NULL,
    "by" TEXT NOT NULL,
    "comment" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "answer_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "answer_grades_quizId_state_idx" ON "answer_grades"("quizId", "state");

-- CreateIndex
CREATE INDEX "answer_history_answerId_at_idx" ON "answer_history"("answerId", "at");

-- CreateIndex
CREATE INDEX "answers_quizId_gradeState_idx" ON "answers"("quizId", "gradeState");

-- CreateIndex
CREATE INDEX "responses_quizId_gradingStatus_idx" ON "responses"("quizId", "gradingStatus");

-- AddForeignKey
ALTER TABLE "answer_grades" ADD CONSTRAINT "answer_grades_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answer_history" ADD CONSTRAINT "answer_history_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
