import { Injectable, type Type } from '@nestjs/common';
import type { IdPrefix } from '../../common/ids/id';
import type { Scope } from '../auth/scopes';

/**
 * A kind of record in the changes feed (CONTRACT §15): each module whose resource has a
 * `GET /v1/<collection>/{id}` registers one at start-up, so that the feed and the history
 * render its changes without knowing the module.
 */
export interface ChangeSource {
  /** The object_type: the singular of the collection (member, prayer_request, …). */
  type: string;
  prefix: IdPrefix;
  /** The read scope of the record's GET. */
  scope: Scope;
  /** The GET is a credential route (`@Auth({credentials: true})`): OAuth access tokens and kiosk keys may not read it. */
  credentials?: true;
  /** The record's response class: its documented fields are the only ones a change shows. */
  response: Type<unknown>;
  /**
   * The records as their GET returns them now (labels in the current request's language), by
   * uuid, in one or a few queries whatever the number of ids. A record that is gone, or that the
   * caller may not see, is absent.
   */
  load(ids: string[]): Promise<Map<string, object>>;
}

@Injectable()
export class ChangeSources {
  private readonly sources = new Map<string, ChangeSource>();

  register(source: ChangeSource): void {
    if (this.sources.has(source.type)) throw new Error(`ChangeSources: ${source.type} registered twice`);
    this.sources.set(source.type, source);
  }

  get(type: string): ChangeSource | undefined {
    return this.sources.get(type);
  }

  all(): ChangeSource[] {
    return [...this.sources.values()];
  }
}
