import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which token created a token (CONTRACT §21): revoking a token revokes the tokens it created, and
 * theirs in turn, so a stolen token cannot leave survivors behind. Null for tokens made by the CLI,
 * the OAuth consent or before this migration.
 */
export class AddTokenCreatorToken1765100000000 implements MigrationInterface {
  name = 'AddTokenCreatorToken1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_tokens ADD COLUMN created_by_token_id uuid`);
    await q.query(
      `CREATE INDEX api_tokens_tenant_created_by_token_idx ON api_tokens (tenant_id, created_by_token_id) WHERE created_by_token_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS api_tokens_tenant_created_by_token_idx`);
    await q.query(`ALTER TABLE api_tokens DROP COLUMN created_by_token_id`);
  }
}
