-- AlterTable: SQLite adds a column with a constant default in place, without rebuilding the table.
ALTER TABLE "quizzes" ADD COLUMN "allowEmbedding" BOOLEAN NOT NULL DEFAULT false;
