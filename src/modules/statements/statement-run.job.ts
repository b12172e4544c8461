import { Injectable, Logger } from '@nestjs/common';
import { ID_PREFIX, newUuid, toPublicId } from '../../common/ids/id';
import { BackgroundJob, JobContext, JobFailure, JobHandler } from '../../platform/jobs/background-job';
import { QUEUES } from '../../platform/jobs/queues';
import { TenantsService } from '../../platform/tenancy/tenants.service';
import { todayIn } from './pdf/statement-format';
import { renderStatementPdf } from './pdf/statement-pdf';
import { buildStatement } from './statement-builder';
import type { StatementRunEntity } from './statement-run.entity';
import {
  GiftRow,
  IssuedStatement,
  StatementSettings,
  StatementsRepository,
  StatementUnit,
} from './statements.repository';

export const RUN_MAX_ATTEMPTS = 5;
/** Statements issued per transaction: a restart redoes at most one batch's rendering. */
export const STATEMENTS_PER_BATCH = 20;

export interface StatementRunData {
  runId: string;
}

interface Plan {
  run: StatementRunEntity;
  settings: StatementSettings;
  churchName: string;
  units: StatementUnit[];
  issued: Set<string>;
}

/**
 * The `statements` job: issues the statements of one run (job data: the run's id, nothing else).
 *
 * It counts the run's recipients, then issues the ones this run has not issued yet, a batch per
 * transaction: a statement row is the record of a finished unit of work, so a run that starts
 * again (a retry, or another worker after a crash and its lease) resumes where it stopped without
 * issuing anything twice, and the unique (year, recipient) index keeps one statement per recipient
 * and year even with two runs of a year at once. Progress goes to the job (BullMQ) and to the run
 * row, which clients poll (`GET /v1/statement-runs/{id}`).
 */
@BackgroundJob({ kind: QUEUES.statements, maxAttempts: RUN_MAX_ATTEMPTS })
@Injectable()
export class StatementRunJob implements JobHandler<StatementRunData> {
  private readonly logger = new Logger('Statements');

  constructor(
    private readonly statements: StatementsRepository,
    private readonly tenants: TenantsService,
  ) {}

  async run(context: JobContext<StatementRunData>): Promise<{ issued: number; total: number } | { skipped: string }> {
    const { runId } = context.data;
    const plan = await context.inTenant(() => this.plan(runId));
    if (plan === 'missing') return { skipped: 'no such run' };
    if (plan === 'done') return { skipped: 'done already' };
    const total = plan.units.length;
    let done = plan.units.filter((u) => plan.issued.has(u.recipientId)).length;
    await context.progress(done, total);
    const pending = plan.units.filter((u) => !plan.issued.has(u.recipientId));
    for (let i = 0; i < pending.length; i += STATEMENTS_PER_BATCH) {
      const batch = pending.slice(i, i + STATEMENTS_PER_BATCH);
      const issued = done + batch.length;
      await context.inTenant(async () => {
        await this.issue(plan, batch);
        await this.statements.updateRun(runId, { status: 'running', done: issued, total });
      });
      done = issued; // committed
      await context.progress(done, total);
    }
    await context.inTenant(() =>
      this.statements.updateRun(runId, { status: 'done', done, total, lastError: null, finishedAt: new Date() }),
    );
    this.logger.log(
      `statement run ${toPublicId(ID_PREFIX.statementRun, runId)}: ${total} statements (${pending.length} issued by this attempt)`,
    );
    return { issued: pending.length, total };
  }

  /** A failed attempt: the run is queued again with the error, or `failed` after the last attempt. */
  async onFailure(context: JobContext<StatementRunData>, { message, final }: JobFailure): Promise<void> {
    await context.inTenant(() =>
      this.statements.updateRun(context.data.runId, {
        status: final ? 'failed' : 'queued',
        lastError: message.slice(0, 2000),
        finishedAt: final ? new Date() : null,
      }),
    );
  }

  /** The run, its church's settings and name, its recipients and those it has issued already; marks it running. */
  private async plan(runId: string): Promise<Plan | 'missing' | 'done'> {
    const run = await this.statements.findRun(runId);
    if (!run) return 'missing';
    if (run.status === 'done') return 'done';
    const settings = await this.statements.settings();
    const units = await this.statements.units(run.year, settings.timezone, run.donorIds);
    const issued = await this.statements.issuedBy(runId);
    const done = units.filter((u) => issued.has(u.recipientId)).length;
    await this.statements.updateRun(runId, { status: 'running', total: units.length, done, lastError: null });
    return { run, settings, churchName: await this.tenants.currentName(), units, issued };
  }

  /** Reads, renders and stores one batch of statements in the current transaction. */
  private async issue(plan: Plan, units: StatementUnit[]): Promise<void> {
    const { run, settings } = plan;
    await this.statements.lockYear(run.year);
    const donorIds = [...new Set(units.flatMap((u) => u.donorIds))];
    const householdIds = units.map((u) => u.householdId).filter((id): id is string => id !== null);
    // One transaction, queries one after the other (a transaction's connection runs one at a time).
    const ids = await this.statements.statementIds(
      run.year,
      units.map((u) => u.recipientId),
    );
    const gifts = await this.statements.gifts(run.year, settings.timezone, donorIds);
    const donors = new Map((await this.statements.donors(donorIds)).map((d) => [d.id, d]));
    const households = new Map((await this.statements.households(householdIds)).map((h) => [h.id, h]));
    // Each unit's gifts, in the query's order (received_at, id).
    const unitOf = new Map(units.flatMap((u) => u.donorIds.map((d) => [d, u.recipientId] as const)));
    const giftsOf = new Map<string, GiftRow[]>(units.map((u) => [u.recipientId, []]));
    for (const gift of gifts) giftsOf.get(unitOf.get(gift.donor_id)!)?.push(gift);
    const issuedOn = todayIn(settings.timezone);
    const issued: IssuedStatement[] = [];
    for (const unit of units) {
      const id = ids.get(unit.recipientId) ?? newUuid();
      const unitGifts = giftsOf.get(unit.recipientId)!;
      const parts = buildStatement(
        unit,
        { year: run.year, churchName: plan.churchName, settings },
        donors,
        households,
        unitGifts,
      );
      const pdf = await renderStatementPdf({
        ...parts.document,
        number: toPublicId(ID_PREFIX.statement, id),
        issuedOn,
      });
      issued.push({
        id,
        runId: run.id,
        year: run.year,
        memberId: unit.householdId ? null : unit.recipientId,
        householdId: unit.householdId,
        recipientName: parts.recipientName,
        totals: parts.totals,
        giftCount: unitGifts.length,
        pdf,
        donorIds: unit.donorIds,
      });
    }
    await this.statements.issue(issued);
  }
}
