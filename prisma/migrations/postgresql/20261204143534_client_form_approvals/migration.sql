-- AlterTable
ALTER TABLE "answer_grades" ADD COLUMN     "approvedClient" TEXT,
ADD COLUMN     "approvedVia" TEXT;

-- CreateTable
CREATE TABLE "short_marks" (
    "key" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "short_marks_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "short_marks_expiresAt_idx" ON "short_marks"("expiresAt");
