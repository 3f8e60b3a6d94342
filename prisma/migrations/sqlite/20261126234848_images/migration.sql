-- AlterTable
ALTER TABLE "questions" ADD COLUMN "media" JSONB;

-- CreateTable
CREATE TABLE "image_blobs" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "bytes" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "quiz_images" (
    "quizId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    PRIMARY KEY ("quizId", "hash"),
    CONSTRAINT "quiz_images_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "quiz_images_hash_fkey" FOREIGN KEY ("hash") REFERENCES "image_blobs" ("hash") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "image_sources" (
    "ownerId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("ownerId", "url"),
    CONSTRAINT "image_sources_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "image_sources_hash_fkey" FOREIGN KEY ("hash") REFERENCES "image_blobs" ("hash") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "quiz_images_hash_idx" ON "quiz_images"("hash");

-- CreateIndex
CREATE INDEX "image_sources_hash_idx" ON "image_sources"("hash");
