-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN "linkSecret" TEXT;

-- AlterTable: SQLite adds a column with a constant default in place, without rebuilding the table.
ALTER TABLE "users" ADD COLUMN "timeZone" TEXT NOT NULL DEFAULT 'UTC';
