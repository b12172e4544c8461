import { Injectable } from '@nestjs/common';
import { TenantContext } from '../../common/context/tenant-context';
import { AppError, FieldIssue } from '../../common/errors/app-error';
import { ID_PREFIX, newUuid, parsePublicId } from '../../common/ids/id';
import { ListEnvelope, toEnvelope } from '../../common/lists/list-envelope';
import { parseListQuery } from '../../common/lists/list-query';
import { JobsService } from '../../platform/jobs/jobs.service';
import { QUEUES } from '../../platform/jobs/queues';
import { MemberLookup } from '../members/member-lookup';
import type { CreateStatementRunDto } from './dto/create-statement-run.dto';
import { MIN_YEAR } from './dto/create-statement-run.dto';
import { todayIn } from './pdf/statement-format';
import type { StatementRunResponse } from './dto/statement-run.response';
import type { StatementSettingsDto, StatementSettingsResponse } from './dto/statement-settings.dto';
import type { StatementResponse } from './dto/statement.response';
import type { StatementRunData } from './statement-run.job';
import { StatementRunEntity } from './statement-run.entity';
import { STATEMENT_LIST } from './statements.list';
import { toRunResponse, toStatementResponse } from './statements.mapper';
import { DEFAULT_SETTINGS, StatementSettings, StatementsRepository } from './statements.repository';

@Injectable()
export class StatementsService {
  constructor(
    private readonly statements: StatementsRepository,
    private readonly jobs: JobsService,
    private readonly members: MemberLookup,
  ) {}

  /**
   * Starts a run: the run row and its `statements` job in the request's transaction (no run without
   * its job), handed to the worker after the commit.
   */
  async startRun(dto: CreateStatementRunDto): Promise<StatementRunResponse> {
    const settings = await this.statements.settings();
    const thisYear = Number(todayIn(settings.timezone).slice(0, 4));
    const issues: FieldIssue[] = [];
    if (dto.year > thisYear)
      issues.push({ field: 'year', issue: 'out_of_range', params: { min: MIN_YEAR, max: thisYear } });
    const donorIds = dto.donor_ids ? await this.resolveDonors(dto.donor_ids, issues) : null;
    if (issues.length) throw AppError.validation(issues);
    const now = new Date();
    const run = Object.assign(new StatementRunEntity(), {
      tenantId: TenantContext.current().tenantId,
      id: newUuid(),
      year: dto.year,
      donorIds,
      status: 'queued',
      total: null,
      done: 0,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    } satisfies Partial<StatementRunEntity>);
    await this.statements.insertRun(run);
    await this.jobs.enqueue(QUEUES.statements, { runId: run.id } satisfies StatementRunData);
    return toRunResponse(run);
  }

  async getRun(id: string): Promise<StatementRunResponse> {
    const run = await this.statements.findRun(id);
    if (!run) throw AppError.notFound('statement run');
    return toRunResponse(run);
  }

  /** A page of statements; their donors and households in one query each. */
  async list(rawQuery: Record<string, unknown>): Promise<ListEnvelope<StatementResponse>> {
    const page = await this.statements.list(parseListQuery(rawQuery, STATEMENT_LIST));
    const donors = await this.statements.donorsOf(page.rows.map((s) => s.id));
    const households = await this.statements.householdNames([
      ...new Set(page.rows.map((s) => s.householdId).filter((h): h is string => h !== null)),
    ]);
    return toEnvelope(page, (s) => toStatementResponse(s, donors, households));
  }

  async pdf(id: string): Promise<{ pdf: Buffer; year: number; updatedAt: Date }> {
    const statement = await this.statements.pdf(id);
    if (!statement) throw AppError.notFound('statement');
    return statement;
  }

  async settings(): Promise<StatementSettingsResponse> {
    return toSettingsResponse(await this.statements.settings());
  }

  /** Replaces the settings: an absent field takes its default. */
  async saveSettings(dto: StatementSettingsDto): Promise<StatementSettingsResponse> {
    // The database reads the year's bounds in this zone: it must know it too (its tz database may differ from the runtime's).
    if (dto.timezone && !(await this.statements.isKnownTimezone(dto.timezone))) {
      throw AppError.validation([{ field: 'timezone', issue: 'invalid_format', params: { format: 'IANA time zone' } }]);
    }
    const settings: StatementSettings = {
      language: dto.language ?? DEFAULT_SETTINGS.language,
      timezone: dto.timezone ?? DEFAULT_SETTINGS.timezone,
      address: dto.address ? { ...dto.address } : null,
      taxId: dto.tax_id?.trim() || null,
      signerName: dto.signer_name?.trim() || null,
      signerTitle: dto.signer_title?.trim() || null,
    };
    await this.statements.saveSettings(settings);
    return toSettingsResponse(settings);
  }

  /** The uuids of `refs` (mem_ ids); a malformed or unknown one is a 422 issue naming its position. */
  private async resolveDonors(refs: string[], issues: FieldIssue[]): Promise<string[]> {
    const uuids = refs.map((ref) => parsePublicId(ID_PREFIX.member, ref));
    const valid = uuids.filter((u): u is string => u !== null);
    // A member merged into another names the survivor, who has its gifts (CONTRACT §17); deleted
    // members too: their gifts stay on record.
    const survivors = await this.members.liveOrSurvivorIds(valid, 'for_key_share');
    const known = await this.members.existingIds(valid);
    const ids = uuids.map((uuid, i) => {
      const id = uuid && (survivors.get(uuid) ?? (known.has(uuid) ? uuid : null));
      if (!id) issues.push({ field: `donor_ids[${i}]`, issue: 'not_found' });
      return id;
    });
    return [...new Set(ids.filter((u): u is string => !!u))];
  }
}

function toSettingsResponse(settings: StatementSettings): StatementSettingsResponse {
  return {
    language: settings.language,
    timezone: settings.timezone,
    address: settings.address,
    tax_id: settings.taxId,
    signer_name: settings.signerName,
    signer_title: settings.signerTitle,
  };
}
