-- AlterTable
ALTER TABLE "questions" ADD COLUMN "correctAnswer" TEXT;
ALTER TABLE "questions" ADD COLUMN "explanation" TEXT;

-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN "description" TEXT;
