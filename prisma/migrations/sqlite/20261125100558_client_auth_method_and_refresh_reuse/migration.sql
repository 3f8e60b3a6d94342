-- AlterTable
ALTER TABLE "oauth_tokens" ADD COLUMN "refreshReusedAt" DATETIME;

-- AlterTable: SQLite adds a column with a constant default in place, without rebuilding the table.
ALTER TABLE "oauth_clients" ADD COLUMN "authMethodDeclared" BOOLEAN NOT NULL DEFAULT false;
