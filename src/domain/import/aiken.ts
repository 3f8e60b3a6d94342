import type { SourceBank, SourceQuestion } from './bank';

/**
 * The Aiken format: a question (one or more lines), options `A)` or `A.` each on its own line, and
 * `ANSWER: B`. Questions are separated by blank lines or simply follow the ANSWER line.
 */
const OPTION = /^([A-Z])[.)]\s*(.*)$/;
const ANSWER = /^ANSWER\s*:\s*(.*)$/i;

export function readAiken(source: string): SourceBank {
  const lines = source.replace(/^\ufeff/, '').split(/\r\n|\r|\n/);
  const questions: SourceQuestion[] = [];
  const problems: string[] = [];
  let current: { question: SourceQuestion; stem: string[]; letters: string[] } | null = null;

  const start = (line: number): NonNullable<typeof current> => ({
    question: {
      at: `line ${line}`,
      sourceType: 'aiken',
      shape: 'one_choice',
      text: '',
      grade: 1,
      answers: [],
      lost: [],
      problems: [],
    },
    stem: [],
    letters: [],
  });
  const finish = (complete: boolean) => {
    if (!current) return;
    const { question } = current;
    question.text = current.stem.join('\n').trim();
    if (!complete) question.problems.push(`${question.at}: no ANSWER: line after the options`);
    questions.push(question);
    current = null;
  };

  lines.forEach((raw, index) => {
    const line = raw.trim();
    const number = index + 1;
    if (line === '') {
      // A blank line inside a question's stem is part of it; after its options it is not.
      if (current && current.letters.length > 0) finish(false);
      return;
    }
    if (!current) current = start(number);
    const answer = ANSWER.exec(line);
    if (answer && current.letters.length > 0) {
      const letter = answer[1]!.trim().toUpperCase();
      const at = current.letters.indexOf(letter);
      if (at < 0) {
        current.question.problems.push(
          `line ${number}: ANSWER: ${letter} names no option (${current.letters.join(', ')})`,
        );
      } else current.question.answers[at]!.fraction = 100;
      finish(true);
      return;
    }
    const option = OPTION.exec(line);
    if (option && (current.stem.length > 0 || current.letters.length > 0)) {
      current.letters.push(option[1]!);
      current.question.answers.push({ text: option[2]!.trim(), fraction: 0 });
      return;
    }
    if (current.letters.length > 0) {
      current.question.problems.push(
        `line ${number}: expected an option (B) ...) or ANSWER: after the options`,
      );
      return;
    }
    current.stem.push(line);
  });
  if (current) finish(false);
  return { format: 'aiken', questions, problems };
}
