import type { Response } from 'express';
import { csrfField } from '../web/csrf';
import { html } from '../web/html';
import { plural, sendPage } from '../web/page-shell';

export interface DeleteQuizState {
  id: string;
  title: string;
  questionCount: number;
  responseCount: number;
}

/** Asks before a quiz goes, naming what goes with it; the button posts the one form that deletes. */
export function sendDeleteQuizPage(res: Response, state: DeleteQuizState): void {
  const back = `/dashboard/quizzes/${state.id}`;
  sendPage(res, {
    title: `Delete “${state.title}”?`,
    section: 'quizzes',
    body: html`<div class="narrow">
      <h1>Delete “${state.title}”?</h1>
      <p>
        This removes the quiz with its ${plural(state.questionCount, 'question', 'questions')} and its
        ${plural(state.responseCount, 'response', 'responses')}. Its public link stops working. This cannot be
        undone.
      </p>
      ${
        state.responseCount > 0
          ? html`<p>
              To keep the responses, <a href="${back}/responses.csv" download>download them as CSV</a> first.
            </p>`
          : ''
      }
      <form method="post" action="${back}/delete">
        ${csrfField(res)}
        <p class="actions">
          <button type="submit" class="danger">Delete the quiz</button>
          <a class="button secondary" href="${back}">Keep it</a>
        </p>
      </form>
    </div>`,
  });
}
