import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ApprovalDeps } from '../../domain/deps';
import { DomainError } from '../../domain/errors';
import type { Principal } from '../../identity/principal';

/**
 * What a tool needs to ask the person in front of the client (`ask_person: true`): how this
 * client can show a question, and what a retried call brought back. The server factory builds it
 * from the request (server-factory.ts); tools read it through `askPerson` below.
 */
export interface PersonContext {
  era: 'legacy' | 'modern';
  /**
   * What the client can show: on 2026-07-28 declared on this very request; in the 2025 era
   * declared at its `initialize`, remembered for the credential (see `noteDeclared`).
   */
  canShow(): Promise<{ form: boolean; url: boolean }>;
  /** A retried call's answers and state (2026-07-28 only; the SDK lifts them off the params). */
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
}

/** The one argument every tool that can ask takes; described once, tersely (tools/list's budget). */
export const AskPersonSchema = z
  .boolean({ error: 'ask_person must be true or false' })
  .optional()
  .describe('Ask the teacher in the client, if it can show it.');

/** How a question reaches the teacher. */
export type Channel = 'form' | 'url' | 'legacy_url' | 'link';

/**
 * Form mode only for OAuth clients (a person approved the client and the grade names it), never
 * for an API key; URL mode for any client that declares it, since the page needs the teacher's own
 * web session and its address grants nothing; else the page's link in the answer.
 */
export async function channelOf(
  person: PersonContext | undefined,
  principal: Principal,
  approvals: ApprovalDeps | undefined,
): Promise<Channel> {
  if (!person || !approvals) return 'link';
  const can = await person.canShow();
  if (person.era === 'legacy') return can.url ? 'legacy_url' : 'link';
  if (can.form && principal.credential.kind === 'oauth') return 'form';
  return can.url ? 'url' : 'link';
}

/** The elicitation modes a capability object declares; an empty object is form (the spec's default). */
export function declaredModes(elicitation: unknown): { form: boolean; url: boolean } {
  if (!elicitation || typeof elicitation !== 'object') return { form: false, url: false };
  const modes = elicitation as Record<string, unknown>;
  const url = modes.url !== undefined;
  const form = modes.form !== undefined || (!url && Object.keys(modes).length === 0);
  return { form, url };
}

/** What a requestState carries: signed, not secret (the client can read it). */
export interface StatePayload {
  /** What is asked: a grade approval, a visit of the grading page, a delete, an edit. */
  kind: 'grades' | 'url' | 'delete' | 'update';
  /** Random: the mark that makes the state single-use. */
  id: string;
  quiz: string;
  /** SHA-256 of exactly what the person was shown (the grades and feedback, the quiz as it was). */
  digest: string;
  /** The answers shown, in order (grades only). */
  answers?: string[];
}

/** Minted states stay valid this long; a mark outlives it so a used one is never taken as new. */
export const STATE_TTL_SECONDS = 600;

type Bound = { binding: string };
const codecs = new WeakMap<Uint8Array, RequestStateCodec<StatePayload>>();

/**
 * The SDK's HMAC-SHA256 codec (`createRequestStateCodec`), bound to the credential: a state
 * minted for one token or key fails on any other, and the binding appears in the state only as an
 * HMAC tag.
 */
function codecOf(key: Uint8Array): RequestStateCodec<StatePayload> {
  let codec = codecs.get(key);
  if (!codec) {
    codec = createRequestStateCodec<StatePayload>({
      key,
      ttlSeconds: STATE_TTL_SECONDS,
      bind: (ctx) => (ctx as unknown as Bound).binding,
    });
    codecs.set(key, codec);
  }
  return codec;
}

const bindingOf = (principal: Principal): ServerContext =>
  ({ binding: `${principal.credential.kind}:${principal.credential.id}` }) as unknown as ServerContext;

export function mintState(
  approvals: ApprovalDeps,
  principal: Principal,
  payload: Omit<StatePayload, 'id'>,
): Promise<string> {
  return codecOf(approvals.key).mint(
    { ...payload, id: randomBytes(16).toString('base64url') },
    bindingOf(principal),
  );
}

/** A retried call's state refused: forged, expired, another credential's, of another question, or used. */
export function stateRefused(why: string): DomainError {
  return new DomainError(
    'invalid_state',
    `This answer from the client was refused (${why}), so nothing changed. ` +
      'Call the tool again with ask_person: true to ask the teacher afresh.',
  );
}

/**
 * The verified payload of a retried call's state, used up: each state is accepted once, by every
 * instance alike. Never logged: a state is the key to one approval while it lives.
 */
export async function takeState(
  approvals: ApprovalDeps | undefined,
  principal: Principal,
  state: string,
  kinds: ReadonlyArray<StatePayload['kind']>,
): Promise<StatePayload> {
  if (!approvals) throw stateRefused('this server does not ask in the client');
  let payload: StatePayload;
  try {
    payload = await codecOf(approvals.key).verify(state, bindingOf(principal));
  } catch (error) {
    const reason = error instanceof Error ? error.message : '';
    throw stateRefused(
      reason === 'expired'
        ? 'the question expired: it is valid for 10 minutes'
        : reason === 'bind'
          ? 'it was asked for another credential'
          : 'it is not a state this server made',
    );
  }
  if (!kinds.includes(payload.kind) || typeof payload.id !== 'string')
    throw stateRefused('it answers another question');
  if (!(await approvals.marks.claim(`used:${payload.id}`, (STATE_TTL_SECONDS + 60) * 1000)))
    throw stateRefused('it was already used');
  return payload;
}

/** A retried call with answers but no state: an acceptance nobody asked for. */
export function unaskedAnswer(): DomainError {
  return new DomainError(
    'invalid_state',
    'This call carries an answer to a question the server did not ask (inputResponses without its requestState), so nothing changed. ' +
      'Call the tool with ask_person: true and let the client ask the teacher.',
  );
}

/** True when a call brings answers back (a retried call, or one that claims to be). */
export const hasAnswers = (person: PersonContext | undefined): boolean =>
  !!person && person.inputResponses !== undefined && Object.keys(person.inputResponses).length > 0;

/** How long what a 2025 client declared at `initialize` is remembered for its credential. */
const DECLARED_TTL_MS = 60 * 60 * 1000;

const declaredKey = (principal: Principal) =>
  `declared-url:${principal.credential.kind}:${principal.credential.id}`;

/**
 * A stateless server never sees a 2025 client's capabilities after its `initialize`: the URL
 * mode it declares there is remembered for its credential, for an hour, in the shared marks.
 */
export async function noteDeclared(
  approvals: ApprovalDeps | undefined,
  principal: Principal,
  capabilities: unknown,
): Promise<void> {
  if (!approvals) return;
  const elicitation = (capabilities as { elicitation?: unknown } | undefined)?.elicitation;
  if (declaredModes(elicitation).url) await approvals.marks.put(declaredKey(principal), DECLARED_TTL_MS);
}

export async function declaredUrl(
  approvals: ApprovalDeps | undefined,
  principal: Principal,
): Promise<boolean> {
  if (!approvals) return false;
  try {
    return await approvals.marks.has(declaredKey(principal));
  } catch {
    return false; // unknown: the link in the answer serves every client
  }
}
