-- AlterTable
ALTER TABLE "answers" ADD COLUMN     "choices" TEXT,
ADD COLUMN     "number" DOUBLE PRECISION,
ADD COLUMN     "text" TEXT;

-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "acceptedAnswers" TEXT,
ADD COLUMN     "correctNumber" DOUBLE PRECISION,
ADD COLUMN     "tolerance" DOUBLE PRECISION;
