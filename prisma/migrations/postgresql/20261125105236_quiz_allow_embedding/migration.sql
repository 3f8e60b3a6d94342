-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "allowEmbedding" BOOLEAN NOT NULL DEFAULT false;
