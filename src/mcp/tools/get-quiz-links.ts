import { z } from 'zod';
import { getQuizLinks } from '../../domain/links/quiz-links';
import { defineTool, READ_ONLY } from '../tool';
import { QuizRefSchema, SignedLinkSchema } from './common';

export const getQuizLinksTool = defineTool({
  name: 'get_quiz_links',
  title: 'Get a quiz’s links',
  description:
    "Public link, QR code, respondents' preview (drafts too; stores nothing), responses CSV, embed snippet, " +
    'exports, upload link. Signed links expire.',
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: z.object({
    quiz_id: z.string(),
    title: z.string(),
    status: z.enum(['draft', 'published']),
    public_url: z.string().nullable().describe('null for a draft.'),
    qr_code: SignedLinkSchema.nullable(),
    preview: SignedLinkSchema,
    csv: SignedLinkSchema,
    embed_html: z.string().nullable(),
    embedding_allowed: z
      .boolean()
      .describe('Other sites may frame it only when true (setting allow_embedding).'),
    upload: SignedLinkSchema.nullable().describe(
      'POST one file (multipart field "file", or raw bytes); answers {upload_id} for import_questions. null without quizzes:write.',
    ),
    exports: z
      .object({ moodle_xml: z.string(), gift: z.string(), qti: z.string() })
      .describe(
        'The questions as Moodle XML, GIFT and a QTI 3.0 package (zip), expiring with the CSV link; the note names what each format cannot hold.',
      ),
    note: z.string(),
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    title: z.string(),
    status: z.string(),
    public_url: z.string().nullable(),
    qr_code: SignedLinkSchema.nullable(),
    preview: SignedLinkSchema,
    csv: SignedLinkSchema,
    embed_html: z.string().nullable(),
    embedding_allowed: z.boolean(),
    upload: SignedLinkSchema.nullable(),
    exports: z.object({ moodle_xml: z.string(), gift: z.string(), qti: z.string() }),
    note: z.string(),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  toolset: 'grading',
  run: (args, { deps, principal }) =>
    getQuizLinks(
      deps,
      principal.userId,
      principal.credential,
      args.quiz_id,
      principal.scopes.has('quizzes:write'),
    ),
  resourceLinks: (links) => [
    {
      uri: links.csv.url,
      name: 'responses.csv',
      mimeType: 'text/csv',
      description: `The responses as CSV; the link expires at ${links.csv.expires_at}.`,
    },
    ...(links.qr_code
      ? [
          {
            uri: links.qr_code.url,
            name: 'qr-code.png',
            mimeType: 'image/png',
            description: 'QR code of the public link.',
          },
        ]
      : []),
  ],
});
