import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Prisma's CLI would download its native schema engine; `generate`, `validate` and `format`
// only check that the file exists, so point them at a stand-in (docs/decisions/0002-prisma-offline.md).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(__dirname, 'scripts', 'schema-engine-unavailable.sh');

export default defineConfig({
  schema: process.env.PRISMA_SCHEMA ?? 'prisma/schema.prisma',
});
