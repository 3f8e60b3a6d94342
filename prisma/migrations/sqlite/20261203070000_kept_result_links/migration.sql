-- AlterTable
ALTER TABLE "responses" ADD COLUMN "resultKeyHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "responses_resultKeyHash_key" ON "responses"("resultKeyHash");
