import { MigrationInterface, QueryRunner } from 'typeorm';
import { allowPlatformAccess, isolateTenantTable } from '../app-role';

/**
 * Webhook endpoint health (CONTRACT §18), beside the endpoint rather than in it: the delivery
 * engine writes it from its batches without touching the endpoint's row (no `updated_at` bump, no
 * change-log trigger run, no lock shared with a PATCH), and a missing row reads as healthy.
 *
 * - `consecutive_failures`: failed attempts since the last 2xx; `failing` from the third.
 * - `failing_since`: when it entered `failing`; `disable_at`: the last scheduled retry of its
 *   oldest failing delivery (the earliest such retry of the deliveries failing now).
 * - `last_success_at`: written at most once a minute while deliveries succeed (the read adds the
 *   attempts since, so that the answer is exact; see WebhookEndpointsRepository).
 * - `notice`: what the church has not been told yet (`failing`, `recovered`, `disabled`), set in the
 *   batch that changed the state and taken, with its mails and event, by one later transaction;
 *   the sweeper takes those a crash left behind (the partial index).
 */
export class CreateWebhookEndpointHealth1765150000000 implements MigrationInterface {
  name = 'CreateWebhookEndpointHealth1765150000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE TABLE webhook_endpoint_health (
         tenant_id uuid NOT NULL,
         endpoint_id uuid NOT NULL,
         consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
         failing_since timestamptz(3),
         disable_at timestamptz(3),
         last_success_at timestamptz(3),
         notice text CHECK (notice IN ('failing', 'recovered', 'disabled')),
         notice_at timestamptz(3),
         PRIMARY KEY (tenant_id, endpoint_id),
         FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id) ON DELETE CASCADE
       )`,
      `CREATE INDEX webhook_endpoint_health_notice_idx ON webhook_endpoint_health (notice_at) WHERE notice IS NOT NULL`,
      ...isolateTenantTable('webhook_endpoint_health'),
      allowPlatformAccess('webhook_endpoint_health'),
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_endpoint_health`);
  }
}
