-- AlterTable
ALTER TABLE "responses" ADD COLUMN "originalMaxScore" INTEGER;
ALTER TABLE "responses" ADD COLUMN "originalScore" INTEGER;
ALTER TABLE "responses" ADD COLUMN "remarkedAt" DATETIME;
