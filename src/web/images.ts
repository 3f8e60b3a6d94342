import { imagePath, mediaOf, type ImageRef } from '../domain/images/image-ref';
import { html, type Html } from './html';

/**
 * A question's picture on a page: from our origin, its size given so nothing shifts while it
 * loads, scaled to the column by the stylesheet (`.question-image`), and a link to the picture
 * at full size, which is what a tap opens on a phone.
 */
export function questionImage(ref: ImageRef | undefined): Html {
  if (!ref) return html``;
  const src = imagePath(ref);
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
export function optionImage(ref: ImageRef | null | undefined): Html {
  if (!ref) return html``;
  const src = imagePath(ref);
  return html`<img
    class="option-image"
    src="${src}"
    alt="${ref.alt}"
    width="${String(ref.width)}"
    height="${String(ref.height)}"
    loading="lazy"
  />`;
}

/** The pictures of a stored question (its media column), read once per page. */
export const questionMedia = (question: { media?: unknown }) => mediaOf(question.media);
