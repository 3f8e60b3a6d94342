import type { Repositories } from '../../db/repositories';
import { emitScheduledClose } from './emit';

/**
 * The job that sends quiz.closed when a quiz's closing time passes. Every instance runs it; each
 * closing is written once whichever instance sees it first (`emitScheduledClose`). It looks back
 * a day, so a closing passed while every instance was down is still sent when one comes back,
 * and one passed long before (or before the job existed) is not sent late.
 */
export const CLOSING_LOOKBACK_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;

type Stores = Pick<Repositories, 'quizzes'>;

/** One round: writes quiz.closed for every closing due; returns how many this call wrote. */
export async function emitDueClosings(repos: Stores, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - CLOSING_LOOKBACK_MS);
  let written = 0;
  for (;;) {
    const due = await repos.quizzes.closingsDue(since, now, BATCH);
    let batch = 0;
    for (const quiz of due) if (await emitScheduledClose(repos, quiz, quiz.closesAt)) batch += 1;
    written += batch;
    // A full batch may hide more behind it: read again once this one is marked (if another
    // instance marked it all, it is working through the same list).
    if (due.length < BATCH || batch === 0) return written;
  }
}

export interface ClosingSchedule {
  stop(): void;
}

type ClosingLogger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/**
 * Runs emitDueClosings every `everyMs` (a minute by default), off the request path. A failure
 * (the database away) is logged and the next round tries again: the look-back covers the gap.
 */
export function scheduleClosings(
  repos: Stores,
  logger: ClosingLogger,
  { everyMs = 60 * 1000, now = () => new Date() } = {},
): ClosingSchedule {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const written = await emitDueClosings(repos, now());
      if (written > 0) logger.info({ closings: written }, 'quiz.closed written for closing times passed');
    } catch (error) {
      logger.warn({ err: error }, 'sending quiz.closed for closing times failed; the next round tries again');
    } finally {
      running = false;
    }
  };
  const every = setInterval(() => void run(), everyMs).unref();
  return {
    stop() {
      clearInterval(every);
    },
  };
}
