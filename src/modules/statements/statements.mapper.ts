import { ID_PREFIX, toPublicId } from '../../common/ids/id';
import type { StatementRunResponse } from './dto/statement-run.response';
import type { StatementResponse } from './dto/statement.response';
import type { StatementRunEntity } from './statement-run.entity';
import type { StatementEntity } from './statement.entity';

export function toRunResponse(run: StatementRunEntity): StatementRunResponse {
  return {
    id: toPublicId(ID_PREFIX.statementRun, run.id),
    year: run.year,
    donor_ids: run.donorIds ? run.donorIds.map((id) => toPublicId(ID_PREFIX.member, id)) : null,
    status: run.status,
    total: run.total,
    done: run.done,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
    finished_at: run.finishedAt ? run.finishedAt.toISOString() : null,
  };
}

/** `donors`: the statement's donors (names included); `households`: household names by id. */
export function toStatementResponse(
  statement: StatementEntity,
  donors: Map<string, { id: string; first_name: string; last_name: string }[]>,
  households: Map<string, string>,
): StatementResponse {
  const id = toPublicId(ID_PREFIX.statement, statement.id);
  return {
    id,
    year: statement.year,
    run_id: toPublicId(ID_PREFIX.statementRun, statement.runId),
    recipient_name: statement.recipientName,
    household: statement.householdId
      ? {
          id: toPublicId(ID_PREFIX.household, statement.householdId),
          name: households.get(statement.householdId) ?? statement.recipientName,
        }
      : null,
    donors: (donors.get(statement.id) ?? []).map((d) => ({
      id: toPublicId(ID_PREFIX.member, d.id),
      first_name: d.first_name,
      last_name: d.last_name,
    })),
    totals: statement.totals.map((t) => ({ currency: t.currency, amount: t.amount, refunded: t.refunded, net: t.net })),
    gift_count: statement.giftCount,
    pdf_url: `/v1/statements/${id}.pdf`,
    created_at: statement.createdAt.toISOString(),
    updated_at: statement.updatedAt.toISOString(),
  };
}
