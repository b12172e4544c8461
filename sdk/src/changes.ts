import { sleep, type CallOptions, type Transport } from './transport.js';
import type { Change, ChangesPage, QueryParams, ResponseBody } from './types.js';

/** The `object_type`s of the feed (the singular of each collection); the API may add others. */
export type ChangeObjectType =
  | 'member'
  | 'household'
  | 'prospect'
  | 'tag'
  | 'custom_field'
  | 'campus'
  | 'fund'
  | 'donation'
  | 'batch'
  | 'recurring_gift'
  | 'pledge'
  | 'event'
  | 'registration'
  | 'attendance'
  | 'group'
  | 'prayer_request'
  | 'notification'
  | 'device'
  | 'webhook_endpoint'
  | (string & {});

export interface FollowOptions {
  /** Where to start: a cursor from `head()` or one you kept (`feed.cursor`); omitted, the oldest retained change. */
  since?: string;
  /** Only these types (the token must be able to read each: else 403 `scope_insufficient`). */
  types?: ChangeObjectType[];
  /** Changes per request (1–1,000; the API's default 100). */
  limit?: number;
  /** How long to wait between polls once the feed is caught up (default 5,000 ms). */
  intervalMs?: number;
  /** Stops following: the iteration ends (without an error) at the next change, page or poll. */
  signal?: AbortSignal;
}

/**
 * The changes feed as an endless async iterable: it reads pages while `has_more`, then polls every
 * `intervalMs` for more, until `signal` aborts (or the loop breaks). `cursor` is where to resume
 * later (after the last change handed out, at a page boundary; a change may come again: the feed is
 * at least once, so apply changes idempotently, by `object_id`).
 */
export class ChangeFeed implements AsyncIterable<Change> {
  private resumeFrom: string | undefined;

  constructor(
    private readonly changes: Changes,
    private readonly options: FollowOptions,
  ) {
    this.resumeFrom = options.since;
  }

  /** Where to resume: keep it, and pass it as `since` to `follow()` next time. */
  get cursor(): string | undefined {
    return this.resumeFrom;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Change, void, undefined> {
    const { signal, intervalMs = 5_000 } = this.options;
    while (!signal?.aborted) {
      let page: ChangesPage;
      try {
        page = await this.changes.page(
          { since: this.resumeFrom, types: this.options.types, limit: this.options.limit },
          { signal },
        );
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      for (const change of page.data) {
        if (signal?.aborted) return;
        yield change;
      }
      this.resumeFrom = page.next_cursor;
      if (page.has_more) continue;
      try {
        await sleep(intervalMs, signal);
      } catch {
        return; // aborted while waiting
      }
    }
  }
}

/** `/v1/changes`: every create, update and delete (a tombstone) of every record, in commit order. */
export class Changes {
  constructor(private readonly t: Transport) {}

  /** A cursor for "now": take it, list what you need, then `follow({since: cursor})`. */
  head(options?: CallOptions): Promise<ResponseBody<'/v1/changes/head', 'get'>> {
    return this.t.send('get', '/v1/changes/head', {}, options);
  }

  /**
   * One page of changes after `since`; follow `next_cursor` at once while `has_more`, and keep it for the
   * next poll. A cursor older than the retention is a 410 `sync_cursor_expired`.
   */
  page(
    query: { since?: string; types?: ChangeObjectType[]; limit?: number } = {},
    options?: CallOptions,
  ): Promise<ChangesPage> {
    const params: QueryParams<'/v1/changes'> = {};
    if (query.since !== undefined) params.since = query.since;
    if (query.types?.length) params.types = query.types.join(',');
    if (query.limit !== undefined) params.limit = query.limit;
    return this.t.send('get', '/v1/changes', { query: params }, options);
  }

  /** Follows the feed: `for await (const change of client.changes.follow({since}))`. */
  follow(options: FollowOptions = {}): ChangeFeed {
    return new ChangeFeed(this, options);
  }
}
