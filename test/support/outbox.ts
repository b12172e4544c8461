import type { TestApi } from './api';

/**
 * The `data.object` of the church's outbox events of `type`, oldest first (read past row-level
 * security, as a subscriber would receive them): only those whose object has the id `objectId`
 * when it is given.
 */
export async function outboxObjects<T>(
  api: TestApi,
  church: { id: string },
  type: string,
  objectId?: string,
): Promise<T[]> {
  const rows: { object: T }[] = await api.db.platform.query(
    `SELECT payload->'data'->'object' AS object FROM webhook_events WHERE tenant_id = $1 AND type = $2 AND ($3::text IS NULL OR payload->'data'->'object'->>'id' = $3) ORDER BY created_at, id`,
    [church.id, type, objectId ?? null],
  );
  return rows.map((r) => r.object);
}
