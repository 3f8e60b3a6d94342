-- AlterTable
ALTER TABLE "oauth_clients" ADD COLUMN     "authMethodDeclared" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "oauth_tokens" ADD COLUMN     "refreshReusedAt" TIMESTAMP(3);
