-- AlterTable
ALTER TABLE "responses" ADD COLUMN     "timeUp" BOOLEAN NOT NULL DEFAULT false;
