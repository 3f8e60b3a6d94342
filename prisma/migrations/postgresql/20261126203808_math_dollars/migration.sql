-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "mathDollars" BOOLEAN NOT NULL DEFAULT false;
