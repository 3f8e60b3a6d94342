import { imagePath, mediaOf, type ImageRecord, type ImageRef } from '../domain/images/image-ref';
import { html, type Html } from './html';

/** A stored picture (its hash), or one as the records give it (our own absolute address). */
export type Picture = ImageRef | ImageRecord;

/** Where a page loads it: always the path on our own origin, which the pages' policy allows. */
const sourceOf = (ref: Picture) => ('url' in ref ? new URL(ref.url).pathname : imagePath(ref));

/**
 * A question's picture on a page: from our origin, its size given so nothing shifts while it
 * loads, scaled to the column by the stylesheet (`.question-image`), and a link to the picture
 * at full size, which is what a tap opens on a phone.
 */
export function questionImage(ref: Picture | null | undefined): Html {
  if (!ref) return html``;
  const src = sourceOf(ref);
  return html`<a class="question-image" href="${src}" target="_blank" rel="noopener"
    ><img
      src="${src}"
      alt="${ref.alt}"
      width="${String(ref.width)}"
      height="${String(ref.height)}"
      loading="lazy"
  /></a>`;
}

/** An option's picture, inside its label: choosing it by a tap on the picture still chooses the option. */
export function optionImage(ref: Picture | null | undefined): Html {
  if (!ref) return html``;
  const src = sourceOf(ref);
  return html`<img
    class="option-image"
    src="${src}"
    alt="${ref.alt}"
    width="${String(ref.width)}"
    height="${String(ref.height)}"
    loading="lazy"
  />`;
}

/**
 * An option's picture where the option is read, not chosen (the review, the owner's pages): as in
 * a label, and a link to the picture at full size, which is what a tap opens on a phone.
 */
export function optionPicture(ref: Picture | null | undefined): Html {
  if (!ref) return html``;
  return html`<a class="option-image-link" href="${sourceOf(ref)}" target="_blank" rel="noopener"
    >${optionImage(ref)}</a
  >`;
}

/** The pictures of a stored question (its media column), read once per page. */
export const questionMedia = (question: { media?: unknown }) => mediaOf(question.media);
