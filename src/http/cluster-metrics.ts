import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * /metrics with several workers (WORKERS > 1): each worker counts in its own registry, and the
 * one that takes a scrape asks the primary, which gathers every worker's registry over cluster
 * IPC (prom-client's AggregatorRegistry) and answers their sum, so one scrape covers them all.
 */
const ASK = 'quiz:metrics-ask';
const ANSWER = 'quiz:metrics-answer';
const WAIT_MS = 6_000;

interface Answer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

const isMessage = (message: unknown, type: string): message is { type: string; id: string } =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** In the primary: answers the workers' asks with every worker's metrics summed. */
export function gatherWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message, ASK)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (error: unknown) =>
        worker.send({
          type: ANSWER,
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        } satisfies Answer),
    );
  });
}

/**
 * In a worker: offers `registry` to the primary's gathering, and returns what a scrape answers,
 * the sum over every worker.
 */
export function clusterMetricsSource(registry: Registry): () => Promise<string> {
  // Its constructor sets up the worker's side of prom-client's gathering.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  process.on('message', (message: unknown) => {
    if (!isMessage(message, ANSWER)) return;
    const answer = message as Answer;
    const pending = waiting.get(answer.id);
    if (!pending) return;
    waiting.delete(answer.id);
    if (answer.error !== undefined) pending.reject(new Error(answer.error));
    else pending.resolve(answer.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the primary process gave no metrics within ${WAIT_MS} ms`));
      }, WAIT_MS);
      waiting.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      process.send!({ type: ASK, id });
    });
}
