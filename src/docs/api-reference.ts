import type { Config } from '../config';
import { DEFAULT_IMAGE_ALT, IMPORT_FORMATS } from '../domain/import/bank';
import { SCALES, typeForShape } from '../domain/import/assemble';
import { CSV_COLUMNS, csvAnswerOfEachType } from '../domain/import/csv';
import { MOODLE_TYPES } from '../domain/import/moodle-xml';
import { QTI_INTERACTIONS, QTI_ITEMS_MAX } from '../domain/import/qti';
import { ZIP_LIMITS } from '../domain/import/zip';
import { IMPORT_TEXT_MAX, PREVIEW_PAGE_SIZE } from '../domain/import/import-questions';
import { LINK_LIFETIME_MS } from '../domain/links/signed-links';
import { UPLOAD_BYTES_MAX, UPLOAD_LIFETIME_MS } from '../domain/uploads/uploads';
import { LIMITS } from '../domain/quiz-input';
import { QUESTION_TYPE_DEFINITIONS } from '../domain/question-types';
import { MAX_ACTIVE_KEYS } from '../domain/api-keys';
import { MAX_ENDPOINTS } from '../domain/webhooks/endpoints';
import {
  MAX_PAYLOAD_BYTES,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
} from '../domain/webhooks/events';
import { RETRY_DELAYS_MS } from '../domain/webhooks/schedule';
import { PROBLEMS } from '../http/problem';
import type { ToolEntry, ToolRegistry } from '../mcp/registry';
import { TOOLSETS, TOOLSETS_HEADER, type ToolsetName } from '../mcp/toolsets';
import { TOOLSET_VERSION } from '../version';
import { html, type Html } from '../web/html';
import { layout } from '../web/layout';
import { publicNavigation } from '../web/page-shell';

/** Text with API names between backticks, as the question types' definitions write it, names as code. */
function withCode(text: string): Html[] {
  return text.split('`').map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

/** Each type's own bound, per question of the type; types with the same bound share one entry. */
function typeLimits(): string[] {
  const byBound = new Map<string, { names: string[]; then?: string }>();
  for (const { name, reference } of QUESTION_TYPE_DEFINITIONS) {
    if (!reference.limit) continue;
    const entry = byBound.get(reference.limit.bound) ?? { names: [], ...reference.limit };
    entry.names.push(name);
    byBound.set(reference.limit.bound, entry);
  }
  return [...byBound].map(
    ([bound, { names, then }]) => `${bound} per ${names.join(' or ')} question${then ? `, ${then}` : ''}`,
  );
}

/**
 * GET /en/docs/api-reference: the human reference, generated from the same sources the
 * service runs on (the tool table with its schemas, the problem codes, the configured
 * limits), so it cannot drift from the behaviour. Every problem `type` URI lands on its
 * `#error-<code>` anchor here.
 */
type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
};

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(' | ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'values'}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}

function argumentRows(schema: JsonSchema): Html {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return html`<p class="muted">No arguments (send an empty object).</p>`;
  return html`<div class="table-wrap">
    <table>
      <thead>
        <tr>
          <th scope="col">Argument</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map(
          ([name, prop]) =>
            html`<tr>
              <td><code>${name}</code></td>
              <td>${typeOf(prop)}</td>
              <td>${required.has(name) ? 'yes' : 'no'}</td>
              <td>
                ${prop.description ?? ''}${prop.default !== undefined ? ` Default: ${JSON.stringify(prop.default)}.` : ''}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function resultFields(schema: JsonSchema): Html {
  const entries = Object.entries(schema.properties ?? {});
  return html`<p>
    Result fields (JSON in <code>content[0].text</code> and in <code>structuredContent</code>):
    ${entries.map(([name], index) => html`${index > 0 ? ', ' : ''}<code>${name}</code>`)}.
  </p>`;
}

function toolSection({ listing: tool, definition }: ToolEntry): Html {
  const kind = tool.annotations?.readOnlyHint ? 'Read-only' : 'Changes data';
  const destructive = tool.annotations?.destructiveHint ? ' Destructive.' : '';
  return html`<section id="tool-${tool.name}">
    <h3><code>${tool.name}</code>: ${tool.title ?? ''}</h3>
    <p>${tool.description ?? ''}</p>
    <p class="muted">
      ${`${kind} (scope ${definition.scope}).${destructive} `}${
        definition.toolset
          ? html`Listed with the <a href="#toolsets">toolset</a> <code>${definition.toolset}</code>.`
          : 'Listed by default.'
      }
    </p>
    ${argumentRows(tool.inputSchema as JsonSchema)}
    ${tool.outputSchema ? resultFields(tool.outputSchema as JsonSchema) : ''}
  </section>`;
}

/** A delay of the retry schedule in its largest whole unit: "5 s", "30 min", "10 h". */
function delayText(ms: number): string {
  if (ms >= 3_600_000) return `${ms / 3_600_000} h`;
  if (ms >= 60_000) return `${ms / 60_000} min`;
  return `${ms / 1_000} s`;
}

/** Webhooks: how they are sent and signed, and the event catalogue, from the code that sends them. */
function webhooksSection(): Html {
  return html`<h2 id="webhooks">Webhooks</h2>
    <p>
      Owners add up to ${MAX_ENDPOINTS} HTTPS endpoints on the dashboard (Settings, Webhooks), each for all
      their quizzes or chosen ones, and pick the events it gets. Each event is a <code>POST</code> with a JSON
      body <code>{ "type", "timestamp", "data" }</code> of at most about ${MAX_PAYLOAD_BYTES / 1000} KB,
      signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks 1.0</a> describes:
    </p>
    <ul>
      <li>
        <code>webhook-id</code>: the event's id (<code>msg_...</code>), the same on every retry and for every
        endpoint. Delivery is at least once and in no promised order: de-duplicate by this id.
      </li>
      <li><code>webhook-timestamp</code>: seconds since 1970 when this attempt was signed.</li>
      <li>
        <code>webhook-signature</code>: <code>v1,</code> and the base64 HMAC-SHA256 of
        <code>id.timestamp.body</code> under the endpoint's <code>whsec_</code> secret (its base64 part
        decoded). After a rotation the header carries two signatures, separated by a space, for 24 hours: one
        under each secret. Any Standard Webhooks library verifies it.
      </li>
    </ul>
    <p>
      A delivery succeeds on a 2xx answer within 15 seconds; redirects are not followed and count as failures.
      Failed deliveries are tried again after ${RETRY_DELAYS_MS.slice(1).map(delayText).join(', ')}
      (${RETRY_DELAYS_MS.length} attempts in all). An answer of <code>410 Gone</code> disables the endpoint at
      once, and an endpoint whose deliveries fail for 5 days is disabled; the dashboard shows why and can
      enable it again. "Send test event" sends a <code>${TEST_EVENT_TYPE}</code> event to one endpoint.
      <code>get_quiz_settings</code> says how many endpoints receive a quiz's events.
    </p>
    <h3 id="webhook-events">Events</h3>
    ${WEBHOOK_EVENT_TYPES.map(
      (type) =>
        html`<h4 id="event-${type}"><code>${type}</code></h4>
          <p>${WEBHOOK_EVENTS[type]}</p>
          <dl>
            ${Object.entries(WEBHOOK_EVENT_DATA[type]).map(
              ([field, meaning]) =>
                html`<dt><code>data.${field}</code></dt>
                  <dd>${meaning}</dd>`,
            )}
          </dl>`,
    )}`;
}

/** How a request proves who it is for. */
function authenticationSection(base: string): Html {
  return html`<h2 id="authentication">Authentication</h2>
    <p>
      Every request carries <code>Authorization: Bearer &lt;credential&gt;</code>: a personal API key
      (<code>svc_…</code>, created in the dashboard under Settings, Security, API keys, shown once) or an
      OAuth access token (the route for AI assistants: add <code>${base}/api/mcp</code> as a remote MCP server
      and approve on the consent screen). A key acts as its user; revoking it takes effect on the next
      request.
    </p>
    <p>
      A missing, malformed, unknown or revoked credential gets HTTP 401 with an OAuth error body (RFC 6750)
      such as <code>{"error":"invalid_token","error_description":"…"}</code> and a
      <code>WWW-Authenticate: Bearer resource_metadata="…", scope="quizzes:read quizzes:write"</code> header.
    </p>`;
}

/** The one endpoint and how to call it. */
function endpointSection(base: string): Html {
  const curl = `curl -s ${base}/api/mcp \\
  -H "Authorization: Bearer $KEY" \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_quizzes","arguments":{}}}'`;
  return html`<h2 id="endpoint">The endpoint</h2>
    <p>
      <code>POST ${base}/api/mcp</code> speaks JSON-RPC 2.0 (MCP Streamable HTTP, stateless). No
      <code>initialize</code> is needed: call <code>tools/list</code> and <code>tools/call</code> directly.
      Send <code>Content-Type: application/json</code> and
      <code>Accept: application/json, text/event-stream</code>. The answer is a server-sent-events stream
      whose <code>message</code> event carries the JSON-RPC response on its <code>data:</code> line; a tool's
      payload is the JSON document in <code>result.content[0].text</code>.
    </p>
    <pre><code>${curl}</code></pre>
    <p>
      A failed tool call is a normal response (HTTP 200) with <code>isError: true</code> and a text that says
      what to fix.
    </p>`;
}

/** Each tool, then the webhooks. */
function toolsSection(registry: ToolRegistry, base: string): Html {
  return html`<h2 id="tools">Tools</h2>
    ${toolsetsPart(registry, base)} ${registry.entries.map(toolSection)} ${webhooksSection()}`;
}

/** Which tools a connection lists (toolsets.ts), and that it may call every one. */
function toolsetsPart(registry: ToolRegistry, base: string): Html {
  const names = (toolset: ToolsetName | undefined) =>
    registry.entries
      .filter((entry) => entry.definition.toolset === toolset)
      .map((entry, index) => html`${index > 0 ? ', ' : ''}<code>${entry.definition.name}</code>`);
  return html`<p id="toolsets">
      <code>tools/list</code> lists the connection's toolsets: the default tools (${names(undefined)}), and
      those of each toolset the connector URL names (<code>${base}/api/mcp?toolsets=grading,import</code>, or
      <code>all</code>) or the <code>${TOOLSETS_HEADER}</code> header does. <code>tools/call</code> takes any
      tool on any connection. An unknown toolset is a JSON-RPC error (<code>-32602</code>) that names the
      valid ones.
    </p>
    <ul>
      ${(Object.keys(TOOLSETS) as ToolsetName[]).map(
        (name) => html`<li><code>${name}</code>: ${TOOLSETS[name]} (${names(name)}).</li>`,
      )}
    </ul>`;
}

/** The settings that make a quiz taken through an attempt, and the attempt over JSON. */
function attemptsSection(base: string): Html {
  return html`<h2 id="taking">Taking a quiz: attempts</h2>
    <p>
      These settings (in <code>settings</code> of <code>create_quiz</code> and <code>update_quiz</code>,
      returned by <code>get_quiz_settings</code>) say how a quiz is taken; leaving them out keeps a quiz as
      before.
    </p>
    <ul>
      <li>
        <code>time_limit_minutes</code> (1-600 or null): the page counts down, warns near the end and sends
        the answers at zero; the server accepts a submission until the deadline plus 30 seconds.
      </li>
      <li>
        <code>opens_at</code>, <code>closes_at</code> (ISO-8601 with an offset or <code>Z</code>, or null): no
        attempt or submission outside this window; an attempt started before <code>closes_at</code> may finish
        within its time limit. <code>is_open</code> (in <code>get_quiz_settings</code> and
        <code>list_quizzes</code>) is published, accepting responses and inside the window. Reopening a quiz
        whose <code>closes_at</code> has passed needs a new <code>closes_at</code>.
      </li>
      <li>
        <code>shuffle_questions</code>, <code>shuffle_options</code>: each attempt shows its own order.
        Results, CSV and statistics always use the quiz's own order.
      </li>
      <li>
        <code>question_pool_size</code> (null, or 1 to the number of questions): each attempt draws that many
        questions at random and is scored out of their maxima; statistics count each question over the
        attempts that drew it.
      </li>
      <li>
        <code>max_attempts_per_email</code> (null or at least 1, needs <code>collect_email</code>): the email
        is asked at the start and checked again at submission, trimmed and lower-cased. It holds honest people
        to the rule; it does not stop a determined cheater, who can use another email address.
      </li>
      <li>
        <code>language</code> (<code>en</code>, <code>es</code>, <code>pt</code>, <code>fr</code>,
        <code>de</code>, <code>ar</code>): the language of the public pages' own words; Arabic reads right to
        left.
      </li>
    </ul>
    <p>
      With a time limit, a shuffle, a pool or an attempt limit, a quiz is taken through an attempt. The page
      shows an intro and a Start button (a POST: opening the link starts nothing). Over JSON,
      <code>POST ${base}/api/quizzes/{slug}/attempts</code> (body <code>{}</code>, or
      <code>{"respondent":{"email":"…"}}</code> with an attempt limit) answers <code>attempt_token</code>,
      <code>deadline</code> and the questions drawn, in the order to show, each option with its canonical
      <code>option_index</code>, and no answer key. Send the token with the answers to
      <code>POST ${base}/api/quizzes/{slug}/responses</code> as <code>attempt_token</code>; answers always
      name options by their canonical <code>option_index</code>. A refusal is a 409 whose
      <code>detail</code> says why (no valid token, late, already submitted, attempts used, outside the
      window, or the quiz was edited meanwhile: then send the answers again with the same token).
    </p>`;
}

/** One row per question type: its fields, how it is marked, its answer. */
function questionTypesSection(): Html {
  return html`<h2 id="question-types">Question types</h2>
    <p>
      Each question is one object with <code>type</code>, <code>text</code>, an optional
      <code>explanation</code> and its type's fields; a field of another type is refused by name. Respondents
      answer in the field named in the last column (<code>POST /api/quizzes/{slug}/responses</code>).
    </p>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">type</th>
            <th scope="col">Fields</th>
            <th scope="col">Marked</th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          ${QUESTION_TYPE_DEFINITIONS.map(
            ({ name, reference }) =>
              html`<tr>
                <td><code>${name}</code></td>
                <td>${withCode(reference.fields)}</td>
                <td>${reference.marked}</td>
                <td>${withCode(reference.answer)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** What import_questions reads, how it scores, and what the exports write. */
function importingSection(): Html {
  return html`<h2 id="importing">Importing questions</h2>
    <p>
      <code>import_questions</code> takes a question bank as text, at most ${IMPORT_TEXT_MAX} characters:
      GIFT, Aiken, Moodle XML or the CSV layout below (<code>format</code> ${IMPORT_FORMATS.join(', ')};
      detected when left out). It makes a new draft quiz (<code>title</code>) or appends to a draft
      (<code>quiz_id</code>), all in one transaction or nothing. <code>dry_run: true</code> answers the
      preview only: the counts by type, how many questions lose each kind of thing (feedback per answer,
      images, penalties, formatting), how many have a text the import rewrote in each way
      (<code>changed</code>: a GIFT format marker taken off, HTML character references decoded, HTML read as
      plain text), the scores the rule below changed, and, ${PREVIEW_PAGE_SIZE} to a page (<code>page</code>),
      each question with something to say, by its line or element. A bank of more than ${LIMITS.questionsMax}
      questions is refused with its count unless <code>split: true</code> makes several quizzes; questions
      that cannot be imported (a type this service does not hold yet, an answer that cannot be read) refuse
      the import unless <code>skip_unusable: true</code> leaves them out. XML that declares a DOCTYPE is
      refused: entities and DTDs are never read.
    </p>
    <p id="upload-link">
      <strong>Files.</strong> A bank too large to paste goes through the <code>upload</code> link of
      <code>get_quiz_links</code> (made only for a credential with <code>quizzes:write</code>; it expires in
      ${LINK_LIFETIME_MS.upload / 60_000} minutes): one <code>POST</code> of the file, as
      <code>multipart/form-data</code> in field <code>file</code> or as the raw bytes with their
      <code>Content-Type</code>, at most ${UPLOAD_BYTES_MAX} bytes. It answers <code>201</code> with
      <code>{upload_id, content_type, size, expires_at}</code>; <code>import_questions</code> then takes
      <code>upload_id</code> instead of <code>text</code>. The file is kept ${UPLOAD_LIFETIME_MS / 3_600_000}
      hours, for its owner only. A file too large answers <code>413</code>, a refused link
      <code>403</code> (<code>link_refused</code>).
    </p>
    <p id="import-qti">
      <strong>QTI packages.</strong> A QTI 3.0 or 2.1 content package (a zip with
      <code>imsmanifest.xml</code> at its top, as Canvas, Moodle and TAO export) sent through the upload link
      is read as one bank (<code>format</code> <code>qti</code>): its items in the order of its test, else of
      its manifest, at most ${QTI_ITEMS_MAX}. Each item's one interaction becomes ours:
      ${QTI_INTERACTIONS.map(([interaction, shape], index) => {
        const type = typeForShape(shape);
        return html`${index > 0 ? '; ' : ''}${interaction} →
        ${type ? html`<code>${type.name}</code>` : 'not held yet'}`;
      })};
      other interactions (gap match among them) and items with several other than blanks are listed by
      element. Pictures (<code>&lt;img&gt;</code> files of the package) come along on the question and on
      choices, as pictures sent to <code>create_quiz</code> do; a picture elsewhere is listed as lost. Scores
      come from the standard response processing (match the correct response, map the response) or its
      hand-written forms, through the rule below; MathML with a TeX annotation comes along as TeX. A package
      with more than ${ZIP_LIMITS.entriesMax} entries, a file named outside it, an entry that inflates more
      than ${ZIP_LIMITS.ratioMax} times over or past its size, or a damaged zip is refused whole, and nothing
      is stored.
    </p>
    <p>
      Moodle's types become ours:
      ${MOODLE_TYPES.map(([moodle, shape], index) => {
        const type = typeForShape(shape);
        return html`${index > 0 ? '; ' : ''}${moodle} →
        ${type ? html`<code>${type.name}</code>` : 'not held yet'}`;
      })}.
      Of short answers, the answers worth the most are accepted; GIFT's numeric range
      <code>low..high</code> becomes its middle and half its width, and a <code>~</code> after its numbers
      starts the feedback for any other number (listed as lost, like all per-answer feedback). A matching
      question's grade is split evenly among its pairs (a sub-question with no text is a match of no prompt;
      in GIFT, which has no grade, each pair is worth 1). A cloze question's embedded answers become blanks,
      each worth its weight's share of the grade: SHORTANSWER (SA, SAC) typed, MULTICHOICE in any layout (MC,
      MCV, MCH, shuffled) a choice list. A NUMERICAL or MULTIRESPONSE one alone in its question makes it a
      number question (with its tolerance) or a several-choice one; among other blanks it is listed as lost,
      and its weight still counts in the shares. Moodle's export names these questions <code>cloze</code>,
      read the same. A Moodle category (<code>&lt;question type="category"&gt;</code>, GIFT's
      <code>$CATEGORY:</code>) is named on each question after it, among what it loses: a quiz has no
      categories. GIFT's missing word (choices or short answers with text after them) is a blank of its own,
      and <code>{}</code> an essay; text after any other answers is more of the prompt. GIFT's
      <code>[html]</code>, <code>[plain]</code>, <code>[moodle]</code> and <code>[markdown]</code> are read on
      the prompt, each answer and the general feedback (Markdown stays as written, its formatting listed as
      lost). A picture Moodle XML carries as a <code>&lt;file&gt;</code> (<code>@@PLUGINFILE@@</code>) becomes
      the question's or the option's <code>image</code>, checked as any picture sent to
      <code>create_quiz</code> and stored with the questions only (never on a dry run); its alt text comes
      from the <code>&lt;img&gt;</code>, else "${DEFAULT_IMAGE_ALT}". A file that is not a picture is listed
      with its question, which is then not imported. What is not held yet is read and listed.
    </p>
    <p id="exporting">
      <strong>Exports.</strong> <code>get_quiz_links</code> answers <code>exports</code>: signed links,
      expiring with the CSV link, to the quiz's questions as Moodle XML, as GIFT and as a QTI 3.0 content
      package (<code>qti</code>, a zip). Each type becomes what it is imported from (above), so importing an
      export gives back the same questions. A question's grade is the most it earns and each answer's fraction
      its share; GIFT has no grade, so there every question is worth 1 and only the shares between options are
      kept. Moodle XML and the QTI package carry the pictures as files with their alt text and size. What a
      format cannot hold (Moodle XML: a scale, an essay's rubric, which is written out for graders while its
      maximum stays the grade, a blank worth 0; GIFT: an ordering or scale question, more than one blank or
      one that ends the text, an essay's rubric and word limits, pictures, points other than 1; QTI: partial
      credit for an order, a scale's words, an essay's word limits, among others) is named per question in
      <code>note</code> and beside the downloads on the quiz page.
    </p>
    <p id="import-scoring">
      <strong>The scoring rule.</strong> An answer worth a fraction <em>f</em> (in percent, negative for a
      penalty) of a question graded <em>g</em> (Moodle's default grade; 1 in GIFT and Aiken) is worth
      <em>g</em> × <em>f</em> / 100 × <em>s</em> points, where <em>s</em>, the same for the whole bank and
      answered as <code>points_per_grade</code>, is the first of ${SCALES.join(', ')} that makes every score
      of the bank whole (${SCALES[SCALES.length - 1]} when none does). A score still not whole is rounded half
      away from zero, and one beyond ${LIMITS.pointsMin} to ${LIMITS.pointsMax} is held at the bound; each
      question so changed is listed under <code>regraded</code>. A type with one right answer (or one set of
      accepted answers) earns <em>g</em> × <em>s</em> for it. Penalties for a further try (Moodle's
      <code>penalty</code>) are dropped, since a response here is one try.
    </p>
    <p id="import-csv">
      <strong>The CSV layout</strong> (<a href="/docs/import-template.csv">template</a>): a header row, then
      one question a row, comma-, semicolon- or tab-separated, quoted as RFC 4180 says. Columns:
      ${CSV_COLUMNS.map((name) => html`<code>${name}</code>, `)}and <code>option_1</code> to
      <code>option_${LIMITS.optionsMax}</code>. <code>type</code> and what <code>answer</code> holds:
      ${csvAnswerOfEachType().map(
        ({ type, answer }, index) => html`${index > 0 ? '; ' : ''}<code>${type}</code>, ${answer}`,
      )}. <code>points</code> is a whole number (default 1).
    </p>`;
}

/** The problem types, each with its anchor for the `type` links. */
function errorsSection(): Html {
  return html`<h2 id="errors">Errors</h2>
    <p>
      HTTP-level errors are <code>application/problem+json</code> (RFC 9457) with <code>type</code>,
      <code>title</code>, <code>status</code>, <code>code</code>, <code>detail</code> and <code>hint</code>;
      <code>type</code> is a link to the entry below. Malformed JSON-RPC bodies get HTTP 400 with a JSON-RPC
      error object instead (code -32700 for invalid JSON, -32600 for an invalid request).
    </p>
    <dl>
      ${Object.entries(PROBLEMS).map(
        ([code, problem]) =>
          html`<dt id="error-${code}"><code>${code}</code> (HTTP ${problem.status} ${problem.title})</dt>
            <dd>${problem.meaning}</dd>`,
      )}
    </dl>`;
}

/** The limits the service enforces. */
function limitsSection(config: Config): Html {
  const { max, windowSeconds } = config.rateLimit;
  return html`<h2 id="limits">Limits</h2>
    <ul>
      <li>
        ${max} requests per ${windowSeconds}-second window per credential (API key or OAuth token) on
        <code>/api/mcp</code>; requests without a valid credential are counted per client IP address (IPv6 per
        /56). Every response carries <code>RateLimit-Policy</code>, <code>RateLimit</code>,
        <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>; a 429
        also <code>Retry-After</code> (seconds).
      </li>
      <li>Request bodies up to ${config.maxBodyBytes} bytes.</li>
      <li>${MAX_ACTIVE_KEYS} API keys per user.</li>
      <li>
        Titles ${1}-${LIMITS.titleMax} characters; question text 1-${LIMITS.questionTextMax}; at most
        ${LIMITS.questionsMax} questions; option labels 1-${LIMITS.optionLabelMax}; points and scores integers
        from ${LIMITS.pointsMin} to ${LIMITS.pointsMax}; numbers up to ${LIMITS.numberMagnitudeMax} in
        size${typeLimits().map((limit) => `; ${limit}`)}.
      </li>
      <li>
        Lists are paginated: <code>limit</code> 1-100 (default 20) and <code>cursor</code> = the
        <code>next_cursor</code> of the previous page.
      </li>
    </ul>`;
}

/** How the tool set changes. */
function versioningSection(): Html {
  return html`<h2 id="versioning">Versioning</h2>
    <p>
      The tool set follows semantic versioning; its version is <code>info.version</code> of
      <a href="/openapi.json">/openapi.json</a> and the MCP <code>serverInfo.version</code>. Tools and
      optional arguments are only added. A breaking change ships under a new tool name; the old tool keeps
      working for at least 90 days, and responses that use it carry <code>Deprecation</code> and
      <code>Sunset</code> headers. Changes are listed in the changelog.
    </p>`;
}

export function renderApiReference(config: Config, registry: ToolRegistry): string {
  const base = config.baseUrl;
  const body = html`<h1>Quiz service API reference</h1>
    <p>
      Tool set version <strong>${TOOLSET_VERSION}</strong>. Machine-readable description:
      <a href="/openapi.json">/openapi.json</a>.
    </p>
    <nav aria-label="Contents">
      <ul>
        <li><a href="#authentication">Authentication</a></li>
        <li><a href="#endpoint">The endpoint</a></li>
        <li><a href="#tools">Tools</a></li>
        <li><a href="#taking">Taking a quiz: attempts</a></li>
        <li><a href="#question-types">Question types</a></li>
        <li><a href="#importing">Importing questions</a></li>
        <li><a href="#errors">Errors</a></li>
        <li><a href="#limits">Limits</a></li>
        <li><a href="#versioning">Versioning</a></li>
      </ul>
    </nav>

    ${authenticationSection(base)} ${endpointSection(base)} ${toolsSection(registry, base)}
    ${attemptsSection(base)} ${questionTypesSection()} ${importingSection()} ${errorsSection()}
    ${limitsSection(config)} ${versioningSection()}`;
  return layout({ title: 'API reference: quiz service', body, nav: publicNavigation('api-docs') });
}
