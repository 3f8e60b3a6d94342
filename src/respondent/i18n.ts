import MessageFormat from '@messageformat/core';
import type { Request } from 'express';
import { LANGUAGES, type Language } from '../domain/quiz-input';
import { ar } from './messages/ar';
import { de } from './messages/de';
import { en, type MessageKey, type Messages } from './messages/en';
import { es } from './messages/es';
import { fr } from './messages/fr';
import { pt } from './messages/pt';

/**
 * The respondent pages speak the quiz's language (its `language` setting): every word that is
 * not the owner's comes from messages/<language>.ts, ICU messages compiled by @messageformat/core
 * with CLDR plural rules (Arabic has six forms). docs/decisions/0015-respondent-pages-i18n.md says why
 * this library. A page without a quiz (the 404) follows the browser's Accept-Language.
 */
export const CATALOGS: Record<Language, Messages> = { en, es, pt, fr, de, ar };

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

type Values = Record<string, string | number>;
type Compiled = (values?: Values) => string;

export interface Translator {
  lang: Language;
  dir: 'ltr' | 'rtl';
  t(key: MessageKey, values?: Values): string;
  /** A moment in full, in UTC with the zone named (the page's script shows it in the reader's own zone). */
  instant(date: Date): string;
}

const translators = new Map<Language, Translator>();

function makeTranslator(lang: Language): Translator {
  const formatter = new MessageFormat(lang);
  const compiled = new Map<MessageKey, Compiled>();
  const dates = new Intl.DateTimeFormat(lang, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return {
    lang,
    dir: RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr',
    t(key, values) {
      let message = compiled.get(key);
      if (!message) {
        message = formatter.compile(CATALOGS[lang][key]) as Compiled;
        compiled.set(key, message);
      }
      return message(values);
    },
    instant: (date) => `${dates.format(date)} UTC`,
  };
}

export function translator(lang: string | undefined): Translator {
  const known: Language = (LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : 'en';
  let found = translators.get(known);
  if (!found) {
    found = makeTranslator(known);
    translators.set(known, found);
  }
  return found;
}

/**
 * The reader's language for a page without a quiz: the browser's Accept-Language, negotiated by
 * Express (quality, then order; `pt-BR` matches `pt`); English when it names none we speak.
 */
export function readerLanguageOf(req: Pick<Request, 'acceptsLanguages'>): Language {
  return (req.acceptsLanguages(...LANGUAGES) || 'en') as Language;
}
