-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "quizIds" TEXT,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" DATETIME,
    "disabledAt" DATETIME,
    "disabledReason" TEXT,
    "failingSince" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "webhook_endpoints_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "quizId" TEXT,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "leaseToken" TEXT,
    "leaseUntil" DATETIME,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "webhook_deliveries_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deliveryId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "attemptedAt" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" INTEGER,
    "latencyMs" INTEGER NOT NULL,
    "responseSnippet" TEXT,
    CONSTRAINT "webhook_attempts_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "webhook_deliveries" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_attempts_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_ownerId_idx" ON "webhook_endpoints"("ownerId");

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_nextAttemptAt_idx" ON "webhook_deliveries"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpointId_createdAt_idx" ON "webhook_deliveries"("endpointId", "createdAt");

-- CreateIndex
CREATE INDEX "webhook_attempts_endpointId_attemptedAt_idx" ON "webhook_attempts"("endpointId", "attemptedAt");

-- CreateIndex
CREATE INDEX "webhook_attempts_deliveryId_idx" ON "webhook_attempts"("deliveryId");
