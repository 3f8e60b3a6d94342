import type { RequestHandler } from 'express';
import type { DomainDeps } from '../domain/deps';
import { hashOfImagePath, IMAGE_PATH_PREFIX } from '../domain/images/image-ref';

/** Where the pictures are served; the path names the content, so it never changes. */
export const IMAGE_ROUTE = `${IMAGE_PATH_PREFIX}:file`;

/**
 * A stored picture, from our own origin, by content hash: public (anyone shown the quiz sees
 * it), with its exact type, never sniffed, cached for a year and immutable, and sandboxed should
 * a browser be opened on it alone. Any instance serves it: the bytes are in the database.
 */
export function serveImage(deps: DomainDeps): RequestHandler {
  return async (req, res, next) => {
    const hash = hashOfImagePath(`${IMAGE_PATH_PREFIX}${String(req.params.file)}`);
    if (!hash) return next();
    try {
      const image = await deps.repos.images.read(hash);
      if (!image) {
        res.status(404).type('text/plain').set('Cache-Control', 'no-store').send('No such picture.');
        return;
      }
      res.set({
        'Content-Type': image.mediaType,
        'Content-Length': String(image.bytes.length),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'cross-origin',
        ETag: `"${hash}"`,
      });
      if (req.headers['if-none-match'] === `"${hash}"`) {
        res.status(304).end();
        return;
      }
      res.end(image.bytes);
    } catch (error) {
      next(error);
    }
  };
}
