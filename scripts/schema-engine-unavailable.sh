#!/bin/sh
# Stand-in for Prisma's downloadable schema-engine binary, which this project does not use:
# `prisma generate` only checks that the file exists. Migrations run through the WASM engine
# (src/db/migrate.ts): use `npm run db:migrate` and `npm run db:create-migration`.
echo "This project applies migrations with the WASM schema engine: run 'npm run db:migrate' or 'npm run db:create-migration -- NAME'." >&2
exit 1
