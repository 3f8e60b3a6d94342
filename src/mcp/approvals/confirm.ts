import { createHash } from 'node:crypto';
import { inputRequired, inputResponse, type InputRequiredResult } from '@modelcontextprotocol/server';
import { ConfirmationRequired, DomainError } from '../../domain/errors';
import { loadOwnedQuiz } from '../../domain/owned/load-owned-quiz';
import type { ToolContext } from '../tool';
import { channelOf, hasAnswers, mintState, stateRefused, takeState, unaskedAnswer } from './person';

/**
 * delete_quiz and update_quiz of a published quiz with `ask_person: true`: where the call would
 * be refused for want of its confirmation, a client that can show a form (2026-07-28, OAuth) asks
 * the teacher instead, and the call goes ahead only on their yes, with a state bound to the
 * credential, the quiz as it was and exactly these arguments. Every other client answers as
 * today: the confirmation's `isError`.
 */
export interface Confirmable<T> {
  kind: 'delete' | 'update';
  /** The confirming argument's name, as ConfirmationRequired names it. */
  argument: string;
  askPerson: boolean | undefined;
  ref: string;
  /** The call's arguments, bound into the state: a retried call with others is refused. */
  args: Record<string, unknown>;
  /** The tool's work; `confirmed` stands for the confirming argument. */
  run(confirmed: boolean | undefined): Promise<T>;
  confirmed: boolean | undefined;
}

const QUESTION = { delete: 'Delete this quiz for good?', update: 'Change this published quiz?' };

async function digestOf(context: ToolContext, ref: string, args: Record<string, unknown>) {
  const quiz = await loadOwnedQuiz(context.deps, context.principal.userId, ref);
  const { ask_person: _ask, ...bound } = args;
  const canonical = JSON.stringify([quiz.id, quiz.updatedAt.toISOString(), bound]);
  return { quiz, digest: createHash('sha256').update(canonical).digest('base64url') };
}

export async function confirmAskingPerson<T>(
  context: ToolContext,
  call: Confirmable<T>,
): Promise<T | InputRequiredResult> {
  const { person, principal, deps } = context;
  if (person?.era === 'modern' && person.requestState !== undefined) {
    const payload = await takeState(deps.approvals, principal, person.requestState, [call.kind]);
    const view = inputResponse(person.inputResponses, 'confirm');
    if (view.kind !== 'elicit') throw stateRefused('it carries no answer to the confirmation');
    if (view.action !== 'accept' || view.content?.confirm !== true)
      throw new DomainError(
        'confirmation_required',
        `The teacher did not confirm in the client (${view.action === 'accept' ? 'left unticked' : view.action}), so nothing was ${call.kind === 'delete' ? 'deleted' : 'changed'}.`,
      );
    const { quiz, digest } = await digestOf(context, call.ref, call.args);
    if (quiz.id !== payload.quiz || digest !== payload.digest)
      throw stateRefused('the quiz or the arguments changed since the teacher was asked');
    return call.run(true);
  }
  if (hasAnswers(person)) throw unaskedAnswer();
  try {
    return await call.run(call.confirmed);
  } catch (error) {
    if (
      !(error instanceof ConfirmationRequired) ||
      error.confirm.argument !== call.argument ||
      call.askPerson !== true ||
      !deps.approvals ||
      (await channelOf(person, principal, deps.approvals)) !== 'form'
    )
      throw error;
    const { quiz, digest } = await digestOf(context, call.ref, call.args);
    const requestState = await mintState(deps.approvals, principal, {
      kind: call.kind,
      quiz: quiz.id,
      digest,
    });
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `${error.situation} ${QUESTION[call.kind]}`,
          requestedSchema: {
            type: 'object',
            properties: {
              confirm: { type: 'boolean', title: QUESTION[call.kind], default: false },
            },
            required: ['confirm'],
          },
        }),
      },
      requestState,
    });
  }
}
