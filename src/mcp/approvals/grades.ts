import {
  inputRequired,
  inputResponse,
  UrlElicitationRequiredError,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  approveInClient,
  shownDigest,
  shownProposals,
  type ShownGrade,
} from '../../domain/grading/approve-in-client';
import { assistantOf, type GradeOutcome } from '../../domain/grading/grade-answers';
import type { ToolContext } from '../tool';
import {
  channelOf,
  hasAnswers,
  mintState,
  stateRefused,
  takeState,
  unaskedAnswer,
  type PersonContext,
} from './person';

/**
 * grade_answers with `ask_person: true`: the proposals are stored as always, then offered to the
 * teacher to make final in the client (a form of the grades and feedback, approved all, some or
 * none), or sent to the grading page (URL mode, or the 2025 era's -32042), or linked in the answer.
 * The model alone never makes a grade final here: only the teacher's answer to a form the server
 * asked, with a state it minted for this credential and exactly these grades, does.
 */

/** What grade_answers' answer adds: the grading page, and what the teacher said. */
export const APPROVAL_OUTPUT = {
  grading_url: z.string().optional().describe('The grading page, where the teacher approves.'),
  approval: z
    .object({
      asked: z.enum(['client_form', 'client_url', 'link']),
      outcome: z.enum(['approved', 'declined', 'cancelled', 'sent', 'not_asked']),
      approved: z.number().int(),
    })
    .optional()
    .describe('What the teacher was asked, and answered.'),
};

interface GradeAnswer {
  quiz_id: string;
  grades: GradeOutcome[];
  finalized_responses: string[];
  message: string;
}

type Answer = GradeAnswer & {
  grading_url?: string;
  approval?: { asked: 'client_form' | 'client_url' | 'link'; outcome: ApprovalOutcome; approved: number };
};
type ApprovalOutcome = 'approved' | 'declined' | 'cancelled' | 'sent' | 'not_asked';

const gradingUrl = (baseUrl: string, quizId: string) =>
  `${baseUrl}/dashboard/quizzes/${encodeURIComponent(quizId)}/grading`;

/** Keys of the form's fields: one tick box per answer shown. */
const field = (index: number) => `a${index + 1}`;

function formOf(quizTitle: string, shown: readonly ShownGrade[]) {
  const properties: Record<
    string,
    { type: 'boolean'; title: string; description: string; default: boolean }
  > = {};
  shown.forEach((grade, i) => {
    const levels = grade.levels ? ` (levels ${grade.levels.join(', ')})` : '';
    properties[field(i)] = {
      type: 'boolean',
      title: `Q${grade.position || '?'}: ${grade.points}/${grade.maxPoints}${levels}`,
      description:
        `Answer: “${grade.excerpt}”. ` + (grade.feedback ? `Feedback: “${grade.feedback}”` : 'No feedback.'),
      default: true,
    };
  });
  return {
    message:
      `Approve the assistant's grades for "${quizTitle}"? Each ticked grade becomes final and the student sees it ` +
      'with its feedback; unticked ones stay proposals for the grading page.',
    requestedSchema: { type: 'object' as const, properties },
  };
}

/** The grade_answers' answer for proposals that stay proposals, with where the teacher approves them. */
function withLink(answer: GradeAnswer, url: string, approval: Answer['approval']): Answer {
  return { ...answer, grading_url: url, ...(approval ? { approval } : {}) };
}

export async function gradeAskingPerson(
  askPerson: boolean | undefined,
  context: ToolContext,
  store: () => Promise<GradeAnswer>,
): Promise<Answer | InputRequiredResult> {
  const { deps, principal } = context;
  const person: PersonContext | undefined = context.person;
  const approvals = deps.approvals;
  if (person?.requestState !== undefined && person.era === 'modern')
    return answered(context, person, person.requestState);
  if (hasAnswers(person)) throw unaskedAnswer();

  const answer = await store();
  const proposed = answer.grades.filter((grade) => grade.stored === 'proposed');
  if (proposed.length === 0) return answer;
  const url = gradingUrl(deps.baseUrl, answer.quiz_id);
  if (askPerson !== true) return withLink(answer, url, undefined);

  const channel = await channelOf(person, principal, approvals);
  if (channel === 'link' || !approvals)
    return withLink(
      {
        ...answer,
        message: `${answer.message} This client cannot ask the teacher: they approve on the grading page (grading_url).`,
      },
      url,
      { asked: 'link', outcome: 'not_asked', approved: 0 },
    );
  if (channel === 'legacy_url')
    throw new UrlElicitationRequiredError(
      [
        {
          mode: 'url',
          message: `The grades are stored as proposals. Open the grading page to approve them (your own log-in): ${url}`,
          url,
          elicitationId: `grading-${answer.quiz_id}`,
        },
      ],
      'The teacher approves these grades on the grading page.',
    );
  if (channel === 'url') {
    const requestState = await mintState(approvals, principal, {
      kind: 'url',
      quiz: answer.quiz_id,
      digest: '',
    });
    return inputRequired({
      inputRequests: {
        open: inputRequired.elicitUrl({
          message:
            'The grades are stored as proposals: open the grading page to approve them (your own log-in).',
          url,
        }),
      },
      requestState,
    });
  }
  const found = await shownProposals(
    deps,
    principal.userId,
    proposed.map((grade) => grade.answer_id),
  );
  if (!found || found.shown.length === 0) return withLink(answer, url, undefined);
  const requestState = await mintState(approvals, principal, {
    kind: 'grades',
    quiz: found.quiz.id,
    digest: shownDigest(found.quiz.id, found.shown),
    answers: found.shown.map((grade) => grade.answerId),
  });
  return inputRequired({
    inputRequests: { approve: inputRequired.elicit(formOf(found.quiz.title, found.shown)) },
    requestState,
  });
}

/** The retried call: the teacher's answer to the question the state names, and nothing else. */
async function answered(context: ToolContext, person: PersonContext, state: string): Promise<Answer> {
  const { deps, principal } = context;
  const payload = await takeState(deps.approvals, principal, state, ['grades', 'url']);
  const url = gradingUrl(deps.baseUrl, payload.quiz);
  if (payload.kind === 'url') {
    const view = inputResponse(person.inputResponses, 'open');
    return {
      quiz_id: payload.quiz,
      grades: [],
      finalized_responses: [],
      message:
        view.kind === 'elicit' && view.action === 'accept'
          ? 'The teacher was sent to the grading page; the grades stay proposals until they approve them there.'
          : 'The teacher did not open the grading page; the grades stay proposals (grading_url).',
      grading_url: url,
      approval: {
        asked: 'client_url',
        outcome: view.kind === 'elicit' && view.action === 'accept' ? 'sent' : 'declined',
        approved: 0,
      },
    };
  }
  const answerIds = payload.answers ?? [];
  const view = inputResponse(person.inputResponses, 'approve');
  if (view.kind !== 'elicit') throw stateRefused('it carries no answer to the approval form');
  if (view.action !== 'accept') {
    const found = await shownProposals(deps, principal.userId, answerIds);
    const grades = (found?.shown ?? []).map((grade) => outcomeOf(grade, 'Not approved: still a proposal.'));
    return {
      quiz_id: payload.quiz,
      grades,
      finalized_responses: [],
      message: `The teacher ${view.action === 'decline' ? 'declined' : 'cancelled'} the approval: the grades stay proposals, for the grading page (grading_url).`,
      grading_url: url,
      approval: {
        asked: 'client_form',
        outcome: view.action === 'decline' ? 'declined' : 'cancelled',
        approved: 0,
      },
    };
  }
  const content = view.content ?? {};
  const approve = new Set(answerIds.filter((_, i) => content[field(i)] === true));
  const client = await assistantOf(deps, principal.userId, principal.credential);
  const done = await approveInClient(deps, principal.userId, {
    quizId: payload.quiz,
    answerIds,
    digest: payload.digest,
    approve,
    client,
  });
  const left = done.grades.length - done.approved;
  return {
    quiz_id: done.quiz.id,
    grades: done.grades,
    finalized_responses: done.finalized_responses,
    message:
      `The teacher approved ${done.approved} of ${done.grades.length} grade(s) in ${client}: final now.` +
      (left > 0 ? ` ${left} stay proposals, for the grading page (grading_url).` : ''),
    ...(left > 0 ? { grading_url: url } : {}),
    approval: { asked: 'client_form', outcome: 'approved', approved: done.approved },
  };
}

const outcomeOf = (grade: ShownGrade, note: string): GradeOutcome => ({
  answer_id: grade.answerId,
  response_id: grade.responseId,
  question_id: grade.questionId,
  stored: 'proposed',
  points: grade.points,
  max_points: grade.maxPoints,
  levels: grade.levels,
  feedback: grade.feedback,
  note,
});
