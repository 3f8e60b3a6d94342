/**
 * Deletes what `select` finds, `batch` ids per statement, until it finds none: each statement
 * is short, so a large backlog never holds a table's lock for long.
 */
export async function deleteInBatches(
  batch: number,
  select: (take: number) => Promise<{ id: string }[]>,
  remove: (ids: string[]) => Promise<{ count: number }>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = (await select(batch)).map((row) => row.id);
    if (ids.length === 0) return total;
    const removed = (await remove(ids)).count;
    total += removed;
    // Fewer than a batch: the last one. None removed: what remains changed meanwhile; next run.
    if (ids.length < batch || removed === 0) return total;
  }
}
