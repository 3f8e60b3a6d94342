import { parentPort } from 'node:worker_threads';
import { runReadJob, type ReadJob } from './read-job';

// One job at a time: the pool sends the next only after this one answers.
parentPort?.on('message', (job: ReadJob) => {
  void runReadJob(job).then((answer) => parentPort?.postMessage(answer));
});
parentPort?.postMessage('ready');
