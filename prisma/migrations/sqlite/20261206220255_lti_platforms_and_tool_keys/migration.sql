-- CreateTable
CREATE TABLE "lti_platforms" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "deploymentIds" TEXT NOT NULL,
    "authLoginUrl" TEXT NOT NULL,
    "authTokenUrl" TEXT NOT NULL,
    "jwksUrl" TEXT NOT NULL,
    "registeredVia" TEXT NOT NULL DEFAULT 'manual',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "lti_platforms_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "lti_tool_keys" (
    "kid" TEXT NOT NULL PRIMARY KEY,
    "publicJwk" TEXT NOT NULL,
    "privateSealed" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" DATETIME
);

-- CreateIndex
CREATE INDEX "lti_platforms_ownerId_idx" ON "lti_platforms"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "lti_platforms_issuer_clientId_key" ON "lti_platforms"("issuer", "clientId");
