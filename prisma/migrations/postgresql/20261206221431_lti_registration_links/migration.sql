-- CreateTable
CREATE TABLE "lti_registration_links" (
    "tokenHash" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lti_registration_links_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE INDEX "lti_registration_links_ownerId_idx" ON "lti_registration_links"("ownerId");

-- CreateIndex
CREATE INDEX "lti_registration_links_expiresAt_idx" ON "lti_registration_links"("expiresAt");

-- AddForeignKey
ALTER TABLE "lti_registration_links" ADD CONSTRAINT "lti_registration_links_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
