-- AlterTable
ALTER TABLE "answers" ADD COLUMN "choices" TEXT;
ALTER TABLE "answers" ADD COLUMN "number" REAL;
ALTER TABLE "answers" ADD COLUMN "text" TEXT;

-- AlterTable
ALTER TABLE "questions" ADD COLUMN "acceptedAnswers" TEXT;
ALTER TABLE "questions" ADD COLUMN "correctNumber" REAL;
ALTER TABLE "questions" ADD COLUMN "tolerance" REAL;
