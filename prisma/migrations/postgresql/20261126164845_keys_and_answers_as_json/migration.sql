-- Keys and answers stored as values (docs/decisions/0018): each question's key and each
-- answer's value move from per-type columns (and the options table) into one JSON value shaped
-- by its type's module (src/domain/question-types/), and every answer gets the keys the running
-- figures count it under. The data moves here, in SQL; the old columns and the options table go.
-- There is no way back: back up first (README, "Upgrading").
--
-- A stored type outside the known ones has always read as multiple_choice: it moves like one.
-- Options keep their ids and their order. Absent parts get the defaults the code read them
-- with: yes_no's key "yes", points 0, no accepted answers, correct number and tolerance 0.

-- AlterTable
ALTER TABLE "answers" ADD COLUMN     "statKey" TEXT,
ADD COLUMN     "statNum" DOUBLE PRECISION,
ADD COLUMN     "statValue" TEXT,
ADD COLUMN     "value" JSONB;

-- The value: what the type's module reads back (the label as it read when answered, the number
-- as written). The statistics keys: what result_items and result_values counted the answer under.
UPDATE "answers" SET
    "value" = CASE
        WHEN "type" = 'yes_no' THEN CASE WHEN "choice" IS NULL THEN NULL ELSE jsonb_build_object('choice', "choice") END
        WHEN "type" = 'multiple_select' THEN CASE WHEN "choices" IS NULL THEN NULL
            ELSE jsonb_build_object('optionIndexes', "choices"::jsonb, 'label', COALESCE("optionLabel", '')) END
        WHEN "type" = 'short_text' THEN CASE WHEN "text" IS NULL THEN NULL ELSE jsonb_build_object('text', "text") END
        WHEN "type" = 'number' THEN CASE WHEN "number" IS NULL THEN NULL
            ELSE jsonb_build_object('number', "number", 'written', "text") END
        ELSE CASE WHEN "optionIndex" IS NULL THEN NULL
            ELSE jsonb_build_object('optionIndex', "optionIndex", 'label', "optionLabel") END
    END,
    "statKey" = CASE
        WHEN "choice" IS NOT NULL THEN "choice"
        WHEN "optionIndex" IS NOT NULL THEN CAST("optionIndex" AS TEXT)
        WHEN "choices" IS NOT NULL THEN "choices"
        WHEN "text" IS NOT NULL THEN NULL
        ELSE ''
    END,
    "statValue" = CASE WHEN "number" IS NOT NULL THEN '' WHEN "text" IS NOT NULL THEN "text" ELSE NULL END,
    "statNum" = CASE WHEN "number" IS NOT NULL THEN "number" WHEN "text" IS NOT NULL THEN 0 ELSE NULL END;

ALTER TABLE "answers" DROP COLUMN "choice",
DROP COLUMN "choices",
DROP COLUMN "number",
DROP COLUMN "optionIndex",
DROP COLUMN "optionLabel",
DROP COLUMN "text";

-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "key" JSONB;

UPDATE "questions" q SET "key" = CASE
    WHEN q."type" = 'yes_no' THEN jsonb_build_object('points', COALESCE(q."points", 0),
        'correctAnswer', CASE WHEN q."correctAnswer" = 'no' THEN 'no' ELSE 'yes' END)
    WHEN q."type" = 'short_text' THEN jsonb_build_object('points', COALESCE(q."points", 0),
        'acceptedAnswers', COALESCE(NULLIF(q."acceptedAnswers", ''), '[]')::jsonb)
    WHEN q."type" = 'number' THEN jsonb_build_object('points', COALESCE(q."points", 0),
        'correctNumber', COALESCE(q."correctNumber", 0), 'tolerance', COALESCE(q."tolerance", 0))
    ELSE jsonb_build_object('options', COALESCE((
        SELECT jsonb_agg(jsonb_build_object('id', o."id", 'label', o."label", 'score', o."score") ORDER BY o."position")
        FROM "options" o WHERE o."questionId" = q."id"), '[]'::jsonb))
END;

ALTER TABLE "questions" ALTER COLUMN "key" SET NOT NULL,
DROP COLUMN "acceptedAnswers",
DROP COLUMN "correctAnswer",
DROP COLUMN "correctNumber",
DROP COLUMN "points",
DROP COLUMN "tolerance";

-- The options now live in their questions' keys.
-- DropForeignKey
ALTER TABLE "options" DROP CONSTRAINT "options_questionId_fkey";

-- DropTable
DROP TABLE "options";
