// The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): the service's one skill,
// served with the SDK's own implementation (@modelcontextprotocol/server/ext/skills), which
// answers skills/list and skills/get, serves each file at skill://<name>/<file>, computes the
// digest and size of every file, and declares the extension in the capabilities.
import type { McpServer } from '@modelcontextprotocol/server';
import {
  SkillsExtension,
  skillEntry,
  type Skill,
  type SkillSource,
} from '@modelcontextprotocol/server/ext/skills';
import { SKILL_DESCRIPTION, SKILL_NAME, skillFiles } from './writing-good-quizzes';

const SKILL_FILE = 'SKILL.md';
export const SKILL_URI = `skill://${SKILL_NAME}/${SKILL_FILE}`;
const MARKDOWN = 'text/markdown';

/** The skill's files, as served: SKILL.md, and the parts it points to, each read when its task comes up. */
const FILES: Record<string, string> = skillFiles();
const FILE_URIS = new Map(
  Object.entries(FILES).map(([path, text]) => [`skill://${SKILL_NAME}/${path}`, text]),
);

// Built once, on first use: the digests and sizes of a text that only changes with a release.
let entry: Promise<Skill> | undefined;
const skill = () => (entry ??= skillEntry(SKILL_NAME, FILES));

/**
 * A fixed catalog of one skill, the same for every caller. SKILL.md also appears in
 * resources/list, named and described from its front matter, as the extension recommends.
 */
const source: SkillSource = {
  list: async () => ({ skills: [await skill()] }),
  get: async (uri) => (uri === SKILL_URI ? skill() : undefined),
  read: async (uri) => {
    const text = FILE_URIS.get(uri);
    return text === undefined ? undefined : { text, mimeType: MARKDOWN };
  },
  listResources: async () => [
    { uri: SKILL_URI, name: SKILL_NAME, description: SKILL_DESCRIPTION, mimeType: MARKDOWN },
  ],
};

const SKILLS = new SkillsExtension({ source });

/** Serves the skill on a server built for one request (before it connects). */
export function registerSkills(server: McpServer): void {
  SKILLS.attach(server);
}
