/**
 * Thrown when a conditional GET can be answered before any work: the problem filter writes a
 * 304 with this ETag and no body. Not an error.
 */
export class NotModified extends Error {
  constructor(readonly etag: string) {
    super('not modified');
  }
}
