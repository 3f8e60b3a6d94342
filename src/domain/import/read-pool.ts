import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError, invalidInput, type DomainErrorCode, type FieldIssue } from '../errors';
import { runReadJob, type ReadAnswer, type ReadBank, type ReadJob } from './read-job';

/**
 * Banks are read in worker threads, so a large or hostile file cannot stall the serving thread
 * (the event loop that answers every other request). A few workers, a bounded queue, a deadline
 * per job: past it the worker is ended and replaced. Decision 0024 says why this pool is ours.
 */

export interface ReadPoolOptions {
  size?: number;
  /** Jobs waiting for a worker beyond those running; one more is refused as busy. */
  queueMax?: number;
  deadlineMs?: number;
}

/** The queue is full: the door answers 429 with Retry-After (the dashboard) or says to wait. */
export class ImportsBusy extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      'invalid_input',
      `Nothing was imported:\n- text: the service is reading other imports: try again in ${retryAfterSeconds} seconds`,
      [
        {
          field: 'text',
          message: `the service is reading other imports: try again in ${retryAfterSeconds} seconds`,
        },
      ],
    );
  }
}

interface Pending {
  job: ReadJob;
  resolve: (read: ReadBank) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** Whether its modules are loaded: a new worker's deadline starts only then. */
  ready: boolean;
  current: (Pending & { timer: NodeJS.Timeout | null }) | null;
}

/** In the built server the worker is this file's compiled sibling; under ts-jest, the build's. */
function workerFile(): string {
  if (__filename.endsWith('.js')) return path.join(__dirname, 'read-worker.js');
  return path.resolve(__dirname, '..', '..', '..', 'dist', 'src', 'domain', 'import', 'read-worker.js');
}

const fieldOf = (job: ReadJob) => ('text' in job.source ? 'text' : 'upload_id');

export class ReadPool {
  private readonly size: number;
  private readonly queueMax: number;
  readonly deadlineMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(options: ReadPoolOptions = {}) {
    this.size = options.size ?? Math.max(1, Math.min(2, availableParallelism()));
    this.queueMax = options.queueMax ?? 4;
    this.deadlineMs = options.deadlineMs ?? 10_000;
  }

  read(job: ReadJob): Promise<ReadBank> {
    if (this.closed) return Promise.reject(new Error('the import pool is closed'));
    return new Promise<ReadBank>((resolve, reject) => {
      const pending = { job, resolve, reject };
      const idle = this.idleSlot();
      if (idle) return this.start(idle, pending);
      if (this.queue.length >= this.queueMax) {
        return reject(new ImportsBusy(Math.max(1, Math.ceil(this.deadlineMs / 1000))));
      }
      this.queue.push(pending);
    });
  }

  /** Ends every worker; jobs still running or waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the import pool is closed'));
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        slot.current?.reject(new Error('the import pool is closed'));
        if (slot.current) clearTimeout(slot.current.timer ?? undefined);
        return slot.worker.terminate();
      }),
    );
  }

  private idleSlot(): Slot | undefined {
    const idle = this.slots.find((slot) => !slot.current);
    if (idle) return idle;
    if (this.slots.length >= this.size) return undefined;
    const slot = this.spawn();
    this.slots.push(slot);
    return slot;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerFile()), ready: false, current: null };
    // An idle worker does not keep the process alive; a running job's timer does.
    slot.worker.unref();
    slot.worker.on('message', (answer: ReadAnswer | 'ready') => {
      if (answer !== 'ready') return this.finish(slot, answer);
      slot.ready = true;
      if (slot.current) slot.current.timer = this.deadline(slot);
    });
    slot.worker.on('error', (error) => this.fail(slot, error));
    slot.worker.on('exit', () => this.fail(slot, new Error('an import worker stopped')));
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    slot.current = { ...pending, timer: slot.ready ? this.deadline(slot) : null };
    slot.worker.postMessage(pending.job);
  }

  private deadline(slot: Slot): NodeJS.Timeout {
    return setTimeout(() => this.overrun(slot), this.deadlineMs);
  }

  private finish(slot: Slot, answer: ReadAnswer): void {
    const current = slot.current;
    if (!current) return;
    clearTimeout(current.timer ?? undefined);
    slot.current = null;
    if (answer.ok) current.resolve(answer.read);
    else current.reject(rebuilt(answer));
    this.next(slot);
  }

  /** Past the deadline: the worker is ended (its reading cannot be interrupted) and replaced. */
  private overrun(slot: Slot): void {
    const current = slot.current;
    if (!current) return;
    slot.current = null;
    this.replace(slot);
    const seconds = Math.max(1, Math.round(this.deadlineMs / 1000));
    current.reject(
      invalidInput(
        [
          {
            field: fieldOf(current.job),
            message: `took too long to read (more than ${seconds} seconds): split it into smaller files, or import it in parts`,
          },
        ],
        'Nothing was imported',
      ),
    );
  }

  private fail(slot: Slot, error: Error): void {
    if (!this.slots.includes(slot)) return;
    const current = slot.current;
    slot.current = null;
    if (current) clearTimeout(current.timer ?? undefined);
    this.replace(slot);
    current?.reject(error);
  }

  private replace(old: Slot): void {
    old.worker.removeAllListeners();
    void old.worker.terminate();
    const index = this.slots.indexOf(old);
    if (index >= 0) this.slots.splice(index, 1);
    if (this.closed) return;
    const waiting = this.queue.shift();
    if (waiting) {
      const slot = this.spawn();
      this.slots.push(slot);
      this.start(slot, waiting);
    }
  }

  private next(slot: Slot): void {
    const waiting = this.queue.shift();
    if (waiting) this.start(slot, waiting);
  }
}

function rebuilt(answer: Extract<ReadAnswer, { ok: false }>): Error {
  const failure = answer.failure;
  if (failure.kind === 'domain') {
    return new DomainError(failure.code as DomainErrorCode, failure.message, failure.issues as FieldIssue[]);
  }
  const error = new Error(failure.message);
  error.name = failure.name;
  error.stack = failure.stack;
  return error;
}

type Reader = Pick<ReadPool, 'read' | 'close'>;
let shared: Reader | null = null;

/** The process's pool, made at the first import. */
export function readPool(): Reader {
  shared ??= new ReadPool();
  return shared;
}

/**
 * Reads on this thread, answers crossing the same plain-data form: for tests that force a
 * reader of this thread to fail (a worker has its own copy of every module).
 */
export function readOnThisThread(): void {
  shared = {
    read: (job) =>
      runReadJob(job).then((answer) => {
        if (answer.ok) return answer.read;
        throw rebuilt(answer);
      }),
    close: () => Promise.resolve(),
  };
}

/** Ends the process's pool (at shutdown, and between tests). */
export async function closeReadPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.close();
}
