-- CreateTable
CREATE TABLE "lti_platforms" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "deploymentIds" TEXT NOT NULL,
    "authLoginUrl" TEXT NOT NULL,
    "authTokenUrl" TEXT NOT NULL,
    "jwksUrl" TEXT NOT NULL,
    "registeredVia" TEXT NOT NULL DEFAULT 'manual',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lti_platforms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lti_tool_keys" (
    "kid" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "privateSealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "lti_tool_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "lti_platforms_ownerId_idx" ON "lti_platforms"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "lti_platforms_issuer_clientId_key" ON "lti_platforms"("issuer", "clientId");

-- AddForeignKey
ALTER TABLE "lti_platforms" ADD CONSTRAINT "lti_platforms_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
