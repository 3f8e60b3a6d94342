-- AlterTable: SQLite adds a column with a constant default in place, without rebuilding the table.
ALTER TABLE "quizzes" ADD COLUMN "showCorrectAnswers" TEXT NOT NULL DEFAULT 'never';
