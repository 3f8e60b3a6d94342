import { createWrite } from './response-writes/create';
import { createManyWrite } from './response-writes/create-many';
import { deleteWrite } from './response-writes/delete';
import { figuresRead } from './response-writes/figures';
import { gradeWrite } from './response-writes/grade';
import { recomputeWrite } from './response-writes/recompute';
import { remarkWrite } from './response-writes/remark';
import { writeContext } from './response-writes/shared';
import type { ResponseWrites, WriteHooks } from './response-writes/types';
import type { SqlConnection } from './sql-connection';

export { newId } from './response-writes/shared';
export type { CreatedResponse, ResponseWrites, ResultRows, WriteHooks } from './response-writes/types';

/**
 * The writes that change a quiz's results, through the raw driver: storing a response, deleting
 * one, re-marking, grading, each in one transaction with the running figures
 * (result-aggregates.ts) they change, so the figures always equal a recomputation from the rows
 * (docs/decisions/0016). Raw SQL for the same reason as the request path's reads (decision 0003):
 * a submission is 20-odd rows and as many upserts, and Prisma's per-statement cost dominated it.
 * One implementation for both databases, over the connection's dialect (dialect.ts); one module
 * per write under response-writes/, over the texts and steps they share (shared.ts).
 */
export function responseWrites(db: SqlConnection, hooks: WriteHooks = {}): ResponseWrites {
  const ctx = writeContext(db);
  return {
    create: createWrite(ctx, hooks),
    createMany: createManyWrite(ctx),
    delete: deleteWrite(ctx),
    applyRemarks: remarkWrite(ctx),
    applyGrades: gradeWrite(ctx),
    recompute: recomputeWrite(ctx),
    figures: figuresRead(ctx),
    close: () => db.close(),
  };
}
