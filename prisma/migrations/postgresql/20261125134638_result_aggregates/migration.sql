-- CreateTable
CREATE TABLE "result_scores" (
    "quizId" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "maxScore" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "result_scores_pkey" PRIMARY KEY ("quizId","score","maxScore","passed")
);

-- CreateTable
CREATE TABLE "result_items" (
    "quizId" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "choiceKey" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "sumX" DOUBLE PRECISION NOT NULL,
    "sumX2" DOUBLE PRECISION NOT NULL,
    "sumXT" DOUBLE PRECISION NOT NULL,
    "sumT" DOUBLE PRECISION NOT NULL,
    "sumT2" DOUBLE PRECISION NOT NULL,
    "sumMax" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "result_items_pkey" PRIMARY KEY ("quizId","questionId","bucket","choiceKey")
);

-- CreateTable
CREATE TABLE "result_values" (
    "quizId" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "num" DOUBLE PRECISION NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "result_values_pkey" PRIMARY KEY ("quizId","questionId","value","num")
);

-- CreateIndex
CREATE INDEX "result_values_quizId_questionId_count_idx" ON "result_values"("quizId", "questionId", "count");

-- AddForeignKey
ALTER TABLE "result_scores" ADD CONSTRAINT "result_scores_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "result_items" ADD CONSTRAINT "result_items_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "result_values" ADD CONSTRAINT "result_values_quizId_fkey" FOREIGN KEY ("quizId") REFERENCES "quizzes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the figures of the responses stored so far (the same grouping as the operator's
-- `cli recompute-results`).
INSERT INTO "result_scores" ("quizId", "score", "maxScore", "passed", "count")
SELECT r."quizId", r."score", r."maxScore",
       CASE WHEN r."passed" IS NULL THEN -1 WHEN r."passed" THEN 1 ELSE 0 END, COUNT(*)
FROM "responses" r
GROUP BY r."quizId", r."score", r."maxScore", CASE WHEN r."passed" IS NULL THEN -1 WHEN r."passed" THEN 1 ELSE 0 END;

INSERT INTO "result_items" ("quizId", "questionId", "bucket", "choiceKey", "count", "sumX", "sumX2", "sumXT", "sumT", "sumT2", "sumMax")
SELECT g."quizId", g."questionId", g."bucket", g."choiceKey", COUNT(*), SUM(g."x"), SUM(g."x" * g."x"), SUM(g."x" * g."t"),
       SUM(g."t"), SUM(g."t" * g."t"), SUM(g."m")
FROM (
  SELECT a."quizId", a."questionId", a."points" AS "x", a."maxPoints" AS "m", r."score" AS "t",
         CASE WHEN r."percent" IS NULL THEN -1 WHEN r."percent" < 0 THEN 0 WHEN r."percent" >= 100 THEN 100
              ELSE FLOOR(r."percent")::INTEGER END AS "bucket",
         CASE WHEN a."choice" IS NOT NULL THEN a."choice"
              WHEN a."optionIndex" IS NOT NULL THEN CAST(a."optionIndex" AS TEXT)
              WHEN a."choices" IS NOT NULL THEN a."choices"
              WHEN a."text" IS NOT NULL THEN CASE WHEN a."points" > 0 THEN 'right' ELSE 'wrong' END
              ELSE '' END AS "choiceKey"
  FROM "answers" a JOIN "responses" r ON r."id" = a."responseId"
) g
GROUP BY g."quizId", g."questionId", g."bucket", g."choiceKey";

INSERT INTO "result_values" ("quizId", "questionId", "value", "num", "count")
SELECT a."quizId", a."questionId",
       CASE WHEN a."number" IS NOT NULL THEN '' ELSE a."text" END,
       CASE WHEN a."number" IS NOT NULL THEN a."number" ELSE 0 END, COUNT(*)
FROM "answers" a
WHERE a."text" IS NOT NULL OR a."number" IS NOT NULL
GROUP BY a."quizId", a."questionId", CASE WHEN a."number" IS NOT NULL THEN '' ELSE a."text" END,
         CASE WHEN a."number" IS NOT NULL THEN a."number" ELSE 0 END;
