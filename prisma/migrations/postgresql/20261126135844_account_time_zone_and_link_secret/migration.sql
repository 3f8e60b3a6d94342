-- AlterTable
ALTER TABLE "quizzes" ADD COLUMN     "linkSecret" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';
