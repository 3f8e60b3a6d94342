-- Keys and answers stored as values (docs/decisions/0018): each question's key and each
-- answer's value move from per-type columns (and the options table) into one JSON value shaped
-- by its type's module (src/domain/question-types/), and every answer gets the keys the running
-- figures count it under. The data moves here, in SQL; the old columns and the options table go.
-- There is no way back: back up first (README, "Upgrading").
--
-- A stored type outside the known ones has always read as multiple_choice: it moves like one.
-- Options keep their ids and their order. Absent parts get the defaults the code read them
-- with: yes_no's key "yes", points 0, no accepted answers, correct number and tolerance 0.

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_answers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "quizId" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "questionText" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "value" JSONB,
    "statKey" TEXT,
    "statValue" TEXT,
    "statNum" REAL,
    "points" INTEGER NOT NULL,
    "maxPoints" INTEGER NOT NULL,
    CONSTRAINT "answers_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "responses" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The value: what the type's module reads back (the label as it read when answered, the number
-- as written). The statistics keys: what result_items and result_values counted the answer under.
INSERT INTO "new_answers" ("id", "responseId", "quizId", "questionId", "position", "questionText", "type", "value", "statKey", "statValue", "statNum", "points", "maxPoints")
SELECT "id", "responseId", "quizId", "questionId", "position", "questionText", "type",
    CASE
        WHEN "type" = 'yes_no' THEN CASE WHEN "choice" IS NULL THEN NULL ELSE json_object('choice', "choice") END
        WHEN "type" = 'multiple_select' THEN CASE WHEN "choices" IS NULL THEN NULL
            ELSE json_object('optionIndexes', json("choices"), 'label', COALESCE("optionLabel", '')) END
        WHEN "type" = 'short_text' THEN CASE WHEN "text" IS NULL THEN NULL ELSE json_object('text', "text") END
        WHEN "type" = 'number' THEN CASE WHEN "number" IS NULL THEN NULL
            ELSE json_object('number', "number", 'written', "text") END
        ELSE CASE WHEN "optionIndex" IS NULL THEN NULL
            ELSE json_object('optionIndex', "optionIndex", 'label', "optionLabel") END
    END,
    CASE
        WHEN "choice" IS NOT NULL THEN "choice"
        WHEN "optionIndex" IS NOT NULL THEN CAST("optionIndex" AS TEXT)
        WHEN "choices" IS NOT NULL THEN "choices"
        WHEN "text" IS NOT NULL THEN NULL
        ELSE ''
    END,
    CASE WHEN "number" IS NOT NULL THEN '' WHEN "text" IS NOT NULL THEN "text" ELSE NULL END,
    CASE WHEN "number" IS NOT NULL THEN "number" WHEN "text" IS NOT NULL THEN 0 ELSE NULL END,
    "points", "maxPoints"
FROM "answers";
DROP TABLE "answers";
ALTER TABLE "new_answers" RENAME TO "answers";
CREATE INDEX "answers_responseId_idx" ON "answers"("responseId");
CREATE INDEX "answers_quizId_questionId_idx" ON "answers"("quizId", "questionId");
CREATE TABLE "new_questions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "quizId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "explanation" TEXT,
    "key" JSONB NOT NULL,
    CONSTRAINT "questions_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_questions" ("id", "quizId", "position", "type", "text", "explanation", "key")
SELECT q."id", q."quizId", q."position", q."type", q."text", q."explanation",
    CASE
        WHEN q."type" = 'yes_no' THEN json_object('points', COALESCE(q."points", 0),
            'correctAnswer', CASE WHEN q."correctAnswer" = 'no' THEN 'no' ELSE 'yes' END)
        WHEN q."type" = 'short_text' THEN json_object('points', COALESCE(q."points", 0),
            'acceptedAnswers', json(COALESCE(NULLIF(q."acceptedAnswers", ''), '[]')))
        WHEN q."type" = 'number' THEN json_object('points', COALESCE(q."points", 0),
            'correctNumber', COALESCE(q."correctNumber", 0), 'tolerance', COALESCE(q."tolerance", 0))
        ELSE json_object('options', (
            SELECT json_group_array(json_object('id', o."id", 'label', o."label", 'score', o."score") ORDER BY o."position")
            FROM "options" o WHERE o."questionId" = q."id"))
    END
FROM "questions" q;
DROP TABLE "questions";
ALTER TABLE "new_questions" RENAME TO "questions";
CREATE UNIQUE INDEX "questions_quizId_position_key" ON "questions"("quizId", "position");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- The options now live in their questions' keys.
DROP INDEX "options_questionId_position_key";
PRAGMA foreign_keys=off;
DROP TABLE "options";
PRAGMA foreign_keys=on;
