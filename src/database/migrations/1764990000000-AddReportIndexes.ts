import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the reports (CONTRACT §13), each leading with tenant_id:
 * - giving: a covering index on the received_at range with every column the giving and donors
 *   reports read, so that a report over five years is an index-only range scan of one church;
 * - attendance: the check-in range with the event and the person (index-only);
 * - growth: members by created_at whatever their deletion (the keyset index is over live rows only),
 *   members by deleted_at (those who left), prospects by converted_at.
 */
export class AddReportIndexes1764990000000 implements MigrationInterface {
  name = 'AddReportIndexes1764990000000';

  async up(q: QueryRunner): Promise<void> {
    const statements = [
      `CREATE INDEX donations_tenant_received_report_idx ON donations (tenant_id, received_at) INCLUDE (status, currency, amount, refunded_amount, fund_id, campus_id, donor_id)`,
      `CREATE INDEX attendance_tenant_checked_in_report_idx ON attendance (tenant_id, checked_in_at) INCLUDE (event_id, member_id)`,
      `CREATE INDEX members_tenant_created_report_idx ON members (tenant_id, created_at)`,
      `CREATE INDEX members_tenant_deleted_report_idx ON members (tenant_id, deleted_at) WHERE deleted_at IS NOT NULL`,
      `CREATE INDEX prospects_tenant_converted_report_idx ON prospects (tenant_id, converted_at) WHERE converted_at IS NOT NULL`,
    ];
    for (const sql of statements) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of [
      'prospects_tenant_converted_report_idx',
      'members_tenant_deleted_report_idx',
      'members_tenant_created_report_idx',
      'attendance_tenant_checked_in_report_idx',
      'donations_tenant_received_report_idx',
    ])
      await q.query(`DROP INDEX IF EXISTS ${index}`);
  }
}
