-- AlterTable
ALTER TABLE "responses" ADD COLUMN     "originalMaxScore" INTEGER,
ADD COLUMN     "originalScore" INTEGER,
ADD COLUMN     "remarkedAt" TIMESTAMP(3);
