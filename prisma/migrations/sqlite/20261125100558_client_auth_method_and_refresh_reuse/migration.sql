-- AlterTable
ALTER TABLE "oauth_tokens" ADD COLUMN "refreshReusedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_oauth_clients" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "name" TEXT,
    "redirectUris" TEXT NOT NULL,
    "grantTypes" TEXT NOT NULL,
    "tokenEndpointAuthMethod" TEXT NOT NULL,
    "secretHash" TEXT,
    "scope" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "authMethodDeclared" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_oauth_clients" ("createdAt", "grantTypes", "id", "name", "redirectUris", "scope", "secretHash", "source", "tokenEndpointAuthMethod", "updatedAt") SELECT "createdAt", "grantTypes", "id", "name", "redirectUris", "scope", "secretHash", "source", "tokenEndpointAuthMethod", "updatedAt" FROM "oauth_clients";
DROP TABLE "oauth_clients";
ALTER TABLE "new_oauth_clients" RENAME TO "oauth_clients";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
