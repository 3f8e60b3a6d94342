-- AlterTable
ALTER TABLE "answer_grades" ADD COLUMN "approvedClient" TEXT;
ALTER TABLE "answer_grades" ADD COLUMN "approvedVia" TEXT;

-- CreateTable
CREATE TABLE "short_marks" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "short_marks_expiresAt_idx" ON "short_marks"("expiresAt");
