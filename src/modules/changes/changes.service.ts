import { Inject, Injectable } from '@nestjs/common';
import { AppError, type FieldIssue } from '../../common/errors/app-error';
import { SYSTEM_ACTOR } from '../../common/context/change-actor';
import { ID_PREFIX, parsePublicId, toPublicId } from '../../common/ids/id';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { NOT_FOR_CREDENTIALS } from '../../platform/auth/auth.decorator';
import type { Principal } from '../../platform/auth/principal';
import { hasScope } from '../../platform/auth/scopes';
import { type ChangeSource, ChangeSources } from '../../platform/changes/change-sources';
import { type ChangeKey, compareKeys, decodeCursor, encodeCursor, laterOf, START } from './change-cursor';
import { toFields } from './change-fields';
import { type ChangeRow, ChangesRepository } from './changes.repository';
import type { ChangeResponse, ChangesHeadResponse, ChangesPageResponse } from './dto/change.response';
import type { HistoryEntryResponse } from './dto/history-entry.response';

export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 1000;
const HISTORY_DEFAULT_LIMIT = 50;
const HISTORY_MAX_LIMIT = 250;

@Injectable()
export class ChangesService {
  constructor(
    private readonly changes: ChangesRepository,
    private readonly sources: ChangeSources,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async head(): Promise<ChangesHeadResponse> {
    return { cursor: encodeCursor({ position: await this.changes.line(), seq: 0n }) };
  }

  async feed(
    query: Record<string, unknown>,
    caller: Pick<Principal, 'scopes' | 'tokenType'>,
  ): Promise<ChangesPageResponse> {
    onlyParameters(query, ['since', 'types', 'limit']);
    const since = query.since === undefined ? null : decodeCursor(query.since, 'since');
    const limit = parseLimit(query.limit, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT);
    const sources = this.readable(query.types, caller);
    const page = await this.changes.feed(
      since ?? START,
      sources.map((s) => s.type),
      limit + 1,
    );
    if (since && page.horizon && compareKeys(since, page.horizon) < 0)
      throw new AppError('sync_cursor_expired', { retention_days: this.config.CHANGES_RETENTION_DAYS });
    const hasMore = page.rows.length > limit;
    const rows = page.rows.slice(0, limit);
    const last = rows.length ? keyOf(rows[rows.length - 1]) : (since ?? START);
    const next = hasMore ? last : laterOf(laterOf(last, since ?? START), { position: page.line, seq: 0n });
    return { data: await this.render(rows), next_cursor: encodeCursor(next), has_more: hasMore };
  }

  /** One record's history, newest first (CONTRACT §16); 404 when the record never existed here. */
  async history(
    type: string,
    publicId: string,
    query: Record<string, unknown>,
  ): Promise<{ data: HistoryEntryResponse[]; next_cursor: string | null; total: number }> {
    const source = this.sources.get(type);
    if (!source) throw new Error(`ChangesService.history: no change source ${type}`);
    onlyParameters(query, ['cursor', 'limit']);
    const limit = parseLimit(query.limit, HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT);
    const before = query.cursor === undefined ? null : decodeCursor(query.cursor, 'cursor');
    const id = parsePublicId(source.prefix, publicId);
    if (!id) throw AppError.notFound(type);
    const rows = await this.changes.history(type, id, before, limit + 1);
    // A record keeps its history after a delete; one without changes must exist (now) to have an empty one.
    if (rows.length === 0 && !before && !(await source.load([id])).has(id)) throw AppError.notFound(type);
    const page = rows.slice(0, limit);
    return {
      data: page.map((row) => historyEntry(source, row)),
      next_cursor: rows.length > limit ? encodeCursor(keyOf(page[page.length - 1])) : null,
      total: await this.changes.historyCount(type, id),
    };
  }

  /** The sources the token may read, or those `types` names (400 unknown, 403 not readable). */
  private readable(types: unknown, caller: Pick<Principal, 'scopes' | 'tokenType'>): ChangeSource[] {
    const all = this.sources.all();
    const credentialRefused = (s: ChangeSource) =>
      s.credentials === true && (NOT_FOR_CREDENTIALS as readonly string[]).includes(caller.tokenType);
    if (types === undefined || types === '')
      return all.filter((s) => hasScope(caller.scopes, s.scope) && !credentialRefused(s));
    if (typeof types !== 'string') throw AppError.invalidParameter('types', 'invalid');
    const named = [...new Set(types.split(','))];
    const unknown = named.filter((t) => !this.sources.get(t));
    if (unknown.length)
      throw AppError.invalidParameter('types', 'not_one_of', { values: all.map((s) => s.type).join(', ') });
    const chosen = named.map((t) => this.sources.get(t)!);
    const closed = chosen.find((s) => !hasScope(caller.scopes, s.scope));
    if (closed) throw new AppError('scope_insufficient', { scope: closed.scope });
    if (chosen.some(credentialRefused))
      throw new AppError('token_type_not_allowed', {
        token_type: caller.tokenType === 'oauth' ? 'OAuth access token' : 'kiosk key',
      });
    return chosen;
  }

  /** The page's changes, with each upserted record as its GET returns it now (one load per type). */
  private async render(rows: ChangeRow[]): Promise<ChangeResponse[]> {
    const objects = new Map<string, Map<string, object>>();
    for (const type of new Set(rows.map((r) => r.objectType))) {
      const ids = [...new Set(rows.filter((r) => r.objectType === type && r.op !== 'delete').map((r) => r.objectId))];
      objects.set(type, ids.length ? await this.sources.get(type)!.load(ids) : new Map<string, object>());
    }
    return rows.map((row) => {
      const source = this.sources.get(row.objectType)!;
      const object = row.op === 'delete' ? null : (objects.get(row.objectType)!.get(row.objectId) ?? null);
      const change: ChangeResponse = {
        id: changeId(row),
        object_type: row.objectType,
        object_id: toPublicId(source.prefix, row.objectId),
        op: row.op === 'delete' ? 'delete' : 'upsert',
        changed_at: new Date(row.changedAt).toISOString(),
        object: object as Record<string, unknown> | null,
        merged_into: mergedInto(row),
      };
      // An upsert of a record the caller cannot see (now) shows no values of it.
      if (row.op === 'update' && object) change.previous_attributes = toFields(source, row.oldValues);
      return change;
    });
  }
}

function historyEntry(source: ChangeSource, row: ChangeRow): HistoryEntryResponse {
  const before = toFields(source, row.oldValues);
  const after = toFields(source, row.newValues);
  const changes: HistoryEntryResponse['changes'] = {};
  for (const field of Object.keys(after)) changes[field] = { from: before[field] ?? null, to: after[field] };
  return {
    id: changeId(row),
    changed_at: new Date(row.changedAt).toISOString(),
    op: row.op === 'delete' && row.mergedInto ? 'merge' : row.op,
    actor: row.actor ?? SYSTEM_ACTOR,
    request_id: row.requestId,
    changes,
    merged_into: mergedInto(row),
  };
}

function mergedInto(row: ChangeRow): string | null {
  return row.mergedInto ? toPublicId(ID_PREFIX.member, row.mergedInto) : null;
}

function changeId(row: ChangeRow): string {
  return `${ID_PREFIX.change}_${row.seq}`;
}

function keyOf(row: ChangeRow): ChangeKey {
  return { position: BigInt(row.position), seq: BigInt(row.seq) };
}

function onlyParameters(query: Record<string, unknown>, allowed: string[]): void {
  const issues: FieldIssue[] = Object.keys(query)
    .filter((key) => !allowed.includes(key))
    .map((field) => ({ field, issue: 'not_filterable' }));
  for (const key of allowed)
    if (query[key] !== undefined && typeof query[key] !== 'string') issues.push({ field: key, issue: 'invalid' });
  if (issues.length)
    throw new AppError('invalid_parameter', { parameter: issues.map((i) => i.field).join(', ') }, issues);
}

function parseLimit(raw: unknown, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= max)) throw AppError.invalidParameter('limit', 'out_of_range', { min: 1, max });
  return n;
}
