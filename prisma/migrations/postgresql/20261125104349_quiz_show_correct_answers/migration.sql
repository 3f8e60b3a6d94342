-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "showCorrectAnswers" TEXT NOT NULL DEFAULT 'never';
