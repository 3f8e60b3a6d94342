import type { Response } from 'express';
import { csrfField } from '../web/csrf';
import { html } from '../web/html';
import { plural, sendPage } from '../web/page-shell';

export interface RemarkQuizState {
  id: string;
  title: string;
  responseCount: number;
}

/** Asks before past responses get new marks, saying what changes and what is kept. */
export function sendRemarkQuizPage(res: Response, state: RemarkQuizState): void {
  const back = `/dashboard/quizzes/${state.id}`;
  sendPage(res, {
    title: `Re-mark the responses to “${state.title}”?`,
    section: 'quizzes',
    body: html`<div class="narrow">
      <h1>Re-mark the responses to “${state.title}”?</h1>
      <p>
        Each of the ${plural(state.responseCount, 'response', 'responses')} is marked again under the answer
        keys the quiz has now, for the questions it still has. A response whose marks change keeps its first
        score as its original, shown beside the new one; the answers themselves never change.
      </p>
      <p>
        Fix a wrong answer key first, in the editor with “Re-mark past responses” ticked, or here afterwards.
        Running it again changes nothing.
      </p>
      <form method="post" action="${back}/remark">
        ${csrfField(res)}
        <p class="actions">
          <button type="submit">Re-mark the responses</button>
          <a class="button secondary" href="${back}">Cancel</a>
        </p>
      </form>
    </div>`,
  });
}
