// The respondent pages' words in every language: each file has every key of English (a missing
// one fails here, and in the type check), with the same arguments, and each message compiles
// and formats; Arabic uses its own plural forms. The 404 page follows Accept-Language.
import request from 'supertest';
import { LANGUAGES } from '../../src/domain/quiz-input';
import { CATALOGS, translator } from '../../src/respondent/i18n';
import { en, type MessageKey } from '../../src/respondent/messages/en';
import { startTestApp, type TestApp } from '../helpers/test-app';

const KEYS = Object.keys(en) as MessageKey[];
const argumentsOf = (message: string) =>
  [...new Set([...message.matchAll(/\{\s*([a-zA-Z]+)\s*[,}]/g)].map((match) => match[1]))].sort();
const SAMPLE = { count: 3, minutes: 5, max: 2, seconds: 30, number: 1, total: 4, points: 1 };

describe('respondent messages', () => {
  test.each(LANGUAGES.filter((lang) => lang !== 'en'))(
    '%s has every key of en, with the same arguments',
    (lang) => {
      const catalog = CATALOGS[lang] as Record<string, string>;
      expect(Object.keys(catalog).filter((key) => !(key in en))).toEqual([]);
      expect(KEYS.filter((key) => typeof catalog[key] !== 'string' || catalog[key] === '')).toEqual([]);
      for (const key of KEYS) expect([key, argumentsOf(catalog[key]!)]).toEqual([key, argumentsOf(en[key])]);
    },
  );

  test.each([...LANGUAGES])('every %s message formats', (lang) => {
    const tr = translator(lang);
    for (const key of KEYS) {
      const values = Object.fromEntries(
        argumentsOf(en[key]).map((name) => [name, (SAMPLE as Record<string, number>)[name!] ?? `<${name}>`]),
      );
      expect(tr.t(key, values)).not.toMatch(/[{}]/);
    }
  });

  test('plurals follow each language: Arabic has its dual and few forms; RTL is set for Arabic only', () => {
    const ar = translator('ar');
    expect(ar.dir).toBe('rtl');
    expect(translator('fr').dir).toBe('ltr');
    expect(ar.t('quiz.questionCount', { count: 2 })).toBe('سؤالان.');
    expect(ar.t('quiz.questionCount', { count: 3 })).toBe('3 أسئلة.');
    expect(ar.t('quiz.questionCount', { count: 11 })).toBe('11 سؤالًا.');
    expect(translator('en').t('quiz.questionCount', { count: 1 })).toBe('1 question.');
    expect(translator('de').t('intro.timeAllowed', { minutes: 1 })).toBe('Verfügbare Zeit: 1 Minute.');
  });

  describe('the 404 page', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => app.close());

    test('speaks the language the browser asks for, right to left for Arabic', async () => {
      const es = await request(app.app).get('/q/no-such-quiz').set('Accept-Language', 'es-MX,es;q=0.9');
      expect(es.status).toBe(404);
      expect(es.text).toContain('<html lang="es"');
      expect(es.text).toContain('Cuestionario no encontrado');
      const ar = await request(app.app).get('/q/no-such-quiz').set('Accept-Language', 'ar');
      expect(ar.text).toMatch(/<html lang="ar"\s+dir="rtl"/);
      const plain = await request(app.app).get('/q/no-such-quiz');
      expect(plain.text).toContain('Quiz not found');
    });

    test.each([
      ['pt-BR,pt;q=0.9,en;q=0.8', 'pt'],
      ['pt-BR', 'pt'],
      ['it-IT, de;q=0.5, fr;q=0.7', 'fr'],
      ['de, fr', 'de'],
      ['fr;q=0, de;q=0.1', 'de'],
      ['ja', 'en'],
      ['*', 'en'],
      ['', 'en'],
    ])(
      'Accept-Language %j: the first supported language by quality, else English (%s)',
      async (header, lang) => {
        const res = await request(app.app).get('/q/no-such-quiz').set('Accept-Language', header);
        expect(res.status).toBe(404);
        expect(res.text).toContain(`<html lang="${lang}"`);
      },
    );
  });
});
