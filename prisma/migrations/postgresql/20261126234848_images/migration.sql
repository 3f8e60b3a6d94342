-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "media" JSONB;

-- CreateTable
CREATE TABLE "image_blobs" (
    "hash" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "image_blobs_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "quiz_images" (
    "quizId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "quiz_images_pkey" PRIMARY KEY ("quizId","hash")
);

-- CreateTable
CREATE TABLE "image_sources" (
    "ownerId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "image_sources_pkey" PRIMARY KEY ("ownerId","url")
);

-- CreateIndex
CREATE INDEX "quiz_images_hash_idx" ON "quiz_images"("hash");

-- CreateIndex
CREATE INDEX "image_sources_hash_idx" ON "image_sources"("hash");

-- AddForeignKey
ALTER TABLE "quiz_images" ADD CONSTRAINT "quiz_images_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quiz_images" ADD CONSTRAINT "quiz_images_hash_fkey" FOREIGN KEY ("hash") REFERENCES "image_blobs"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_sources" ADD CONSTRAINT "image_sources_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_sources" ADD CONSTRAINT "image_sources_hash_fkey" FOREIGN KEY ("hash") REFERENCES "image_blobs"("hash") ON DELETE CASCADE ON UPDATE CASCADE;
