-- CreateTable
CREATE TABLE "lti_registration_links" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "lti_registration_links_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "lti_registration_links_ownerId_idx" ON "lti_registration_links"("ownerId");

-- CreateIndex
CREATE INDEX "lti_registration_links_expiresAt_idx" ON "lti_registration_links"("expiresAt");
